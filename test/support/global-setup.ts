import { startSandboxBroker, type SandboxBroker } from './workerSandboxes';

/** Once per jest run: the broker of the workers' sandboxes (test/support/workerSandboxes.ts). */
export default async function globalSetup(): Promise<void> {
	(globalThis as { embroideryBroker?: SandboxBroker }).embroideryBroker =
		await startSandboxBroker();
}
