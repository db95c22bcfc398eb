import type { SandboxBroker } from './workerSandboxes';

/** Closes the workers' sandboxes and their broker, which global-setup.ts started. */
export default async function globalTeardown(): Promise<void> {
	await (globalThis as { embroideryBroker?: SandboxBroker }).embroideryBroker?.close();
}
