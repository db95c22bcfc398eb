/**
 * One sandbox per jest worker, for the files that need only a plain service (`useWorkerSandbox` in
 * sandboxFixture.ts): jest's global setup starts a small broker on loopback, and the first file of a worker
 * that asks gets a sandbox process started for that worker; the worker's later files get the same one. Each
 * file makes accounts and keys of its own there, so files never see each other's jobs, usage or limits.
 * A sandbox runs in a process of its own, so workers' sandboxes use every core as the workers' own did.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { SandboxAddress } from './sandbox';

/** The broker's URL, in the environment jest's workers inherit from the global setup. */
const brokerKey = 'EMBROIDERY_WORKER_SANDBOXES';

interface WorkerSandbox {
	child: ChildProcess;
	address: SandboxAddress;
}

export interface SandboxBroker {
	url: string;
	/** Closes every worker's sandbox (running jobs get the sandbox's 3 s) and the broker. */
	close(): Promise<void>;
}

/** Starts the broker and shares its URL with the workers jest starts afterwards. */
export async function startSandboxBroker(): Promise<SandboxBroker> {
	const sandboxes = new Map<string, Promise<WorkerSandbox>>();
	const server = createServer((request, response) => {
		// A worker asks once per file, seconds or minutes apart. A connection kept alive between two files is
		// one the broker may be closing (its keep-alive over) while the worker, busy loading its next file,
		// has not yet read the close: the worker then writes to it and fails with "other side closed".
		response.setHeader('Connection', 'close');
		const worker = /^\/workers\/(\d+)$/.exec(request.url ?? '')?.[1];
		if (request.method !== 'POST' || worker === undefined) {
			response.writeHead(404).end('POST /workers/<JEST_WORKER_ID>');
			return;
		}
		if (!sandboxes.has(worker)) sandboxes.set(worker, startWorkerSandbox());
		sandboxes.get(worker)!.then(
			({ address }) =>
				response
					.writeHead(200, { 'Content-Type': 'application/json' })
					.end(JSON.stringify(address)),
			(error: Error) => response.writeHead(500).end(error.message),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	process.env[brokerKey] = url;
	return {
		url,
		async close() {
			const started = await Promise.allSettled(sandboxes.values());
			await Promise.all(
				started.flatMap((result) =>
					result.status === 'fulfilled' ? [stop(result.value.child)] : [],
				),
			);
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The sandbox of this jest worker (started on the first call of the worker's first file that asks). */
export async function workerSandbox(): Promise<SandboxAddress> {
	const broker = process.env[brokerKey];
	if (!broker)
		throw new Error(
			'No sandbox broker: run the tests with jest.config.js (npm run test:unit), whose global setup starts it.',
		);
	const worker = process.env.JEST_WORKER_ID ?? '1';
	const response = await fetch(`${broker}/workers/${worker}`, { method: 'POST' });
	const text = await response.text();
	if (!response.ok) throw new Error(`Jest worker ${worker}'s sandbox did not start: ${text}`);
	return JSON.parse(text) as SandboxAddress;
}

function startWorkerSandbox(): Promise<WorkerSandbox> {
	const child = fork(join(__dirname, 'workerSandbox.main.ts'), [], {
		execArgv: ['--require', require.resolve('tsx/cjs')],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	return new Promise((resolve, reject) => {
		child.once('message', (address: SandboxAddress) => resolve({ child, address }));
		child.once('exit', (code, signal) =>
			reject(new Error(`its process ended (${signal ?? `exit code ${code}`}) before it listened`)),
		);
	});
}

/** Lets go of the process (it closes its sandbox and exits); kills it if it is still there after 15 s. */
async function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	if (child.connected) child.disconnect();
	const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
	await exited;
	clearTimeout(killer);
}
