import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { LocalN8n, repoRoot } from '../../../scripts/n8n';
import { e2eKeys, n8nOptions } from './environment';

/** Prepares one n8n user folder with the built package installed; the previous run's folder is wiped. */
export default async function globalSetup(): Promise<void> {
	const root = join(repoRoot, '.n8n-e2e');
	await rm(root, { recursive: true, force: true });
	await mkdir(join(root, 'files'), { recursive: true });
	const n8n = await LocalN8n.create(n8nOptions(root));
	await n8n.installPackage();
	process.env[e2eKeys.root] = root;
}
