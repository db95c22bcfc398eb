import type { RunningSandbox } from '../../support/sandbox';

/** Stops the sandbox global-setup started; each e2e file stops the n8n it starts. */
export default async function globalTeardown(): Promise<void> {
	await (globalThis as { embroiderySandbox?: RunningSandbox }).embroiderySandbox?.close();
}
