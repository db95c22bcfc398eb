/**
 * The process behind one jest worker's sandbox (test/support/workerSandboxes.ts): starts a sandbox, sends
 * its address to the parent, and closes it when the parent lets go of it or ends, so none outlives a run.
 */
import { startSandbox, type SandboxAddress } from './sandbox';

startSandbox({
	port: 0,
	workers: 2,
	// The limit is per client address, and every file of the worker comes from 127.0.0.1 one after
	// another: a busy file would spend the next one's minute. networkCeiling.test.ts has a sandbox of its own.
	networkRateLimit: 0,
}).then(
	(sandbox) => {
		const address: SandboxAddress = {
			baseUrl: sandbox.baseUrl,
			origin: sandbox.origin,
			adminToken: sandbox.adminToken,
		};
		process.send!(address);
		const close = () => {
			sandbox.close().then(
				() => process.exit(0),
				(error: Error) => {
					console.error(error);
					process.exit(1);
				},
			);
		};
		// The IPC channel closes when the parent disconnects or dies, however it ends.
		process.once('disconnect', close);
	},
	(error: Error) => {
		console.error(`The worker's sandbox could not start: ${error.stack ?? error.message}`);
		process.exit(1);
	},
);
