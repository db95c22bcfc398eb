import { rm } from 'node:fs/promises';

import type { RunningSandbox } from '../../support/sandbox';
import { stopServedN8n } from './environment';

/**
 * Stops the n8n the served files left running (every other file stops the n8n it starts) and the sandbox
 * global-setup started, and removes the run's folder, unless EMBROIDERY_E2E_KEEP=1 asks to keep it for n8n's
 * logs and database.
 */
export default async function globalTeardown(): Promise<void> {
	const root = process.env.EMBROIDERY_E2E_ROOT;
	if (root) await stopServedN8n(root);
	await (globalThis as { embroiderySandbox?: RunningSandbox }).embroiderySandbox?.close();
	if (root && process.env.EMBROIDERY_E2E_KEEP !== '1')
		await rm(root, { recursive: true, force: true });
}
