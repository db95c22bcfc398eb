/** What global-setup prepares once per run and every e2e file opens: one n8n user folder, one sandbox. */
import { join } from 'node:path';

import { LocalN8n } from '../../../scripts/n8n';

export interface E2eEnvironment {
	/** Scratch folder of this run (.n8n-e2e/), kept after the run for its logs. */
	root: string;
	/** The folder workflows may read and write with "Read/Write Files from Disk". */
	filesDir: string;
	n8n: LocalN8n;
}

export const e2eKeys = {
	root: 'EMBROIDERY_E2E_ROOT',
} as const;

export function n8nOptions(root: string) {
	return {
		userFolder: join(root, 'n8n'),
		fileAccess: [join(root, 'files')],
		encryptionKey: 'embroidery-e2e',
	};
}

export async function openEnvironment(): Promise<E2eEnvironment> {
	const root = process.env[e2eKeys.root];
	if (!root) throw new Error('Run the end-to-end suite with "npm run test:e2e" (its global setup prepares n8n).');
	return { root, filesDir: join(root, 'files'), n8n: await LocalN8n.create(n8nOptions(root)) };
}
