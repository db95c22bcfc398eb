import { rm } from 'node:fs/promises';

import type { RunningSandbox } from '../../support/sandbox';

/**
 * Stops the sandbox global-setup started (each e2e file stops the n8n it starts) and removes the
 * run's folder, unless EMBROIDERY_E2E_KEEP=1 asks to keep it for n8n's logs and database.
 */
export default async function globalTeardown(): Promise<void> {
	await (globalThis as { embroiderySandbox?: RunningSandbox }).embroiderySandbox?.close();
	const root = process.env.EMBROIDERY_E2E_ROOT;
	if (root && process.env.EMBROIDERY_E2E_KEEP !== '1')
		await rm(root, { recursive: true, force: true });
}
