import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';

import { LocalN8n, repoRoot } from '../../../scripts/n8n';
import { sandboxAdmin, startSandbox } from '../../support/sandbox';
import { credentialExports, n8nOptions, shareEnvironment } from './environment';

/**
 * Once per run: the sandbox on a free port, and one n8n user folder with the built package and the
 * suite's credentials, in a folder of its own so that runs started side by side never meet.
 */
export default async function globalSetup(): Promise<void> {
	await mkdir(join(repoRoot, '.n8n-e2e'), { recursive: true });
	const root = await mkdtemp(join(repoRoot, '.n8n-e2e', 'run-'));
	await mkdir(join(root, 'files'), { recursive: true });
	const sandbox = await startSandbox({ port: 0, dataDir: join(root, 'sandbox') });
	(globalThis as { embroiderySandbox?: typeof sandbox }).embroiderySandbox = sandbox;
	const readOnly = await sandboxAdmin(sandbox).createKey(sandbox.demoAccountId, ['formats:read', 'usage:read', 'jobs:read']);

	const n8n = await LocalN8n.create(n8nOptions(root));
	await n8n.installPackage();
	await n8n.importCredentials(credentialExports(sandbox, readOnly.key));
	shareEnvironment(root, {
		baseUrl: sandbox.baseUrl,
		origin: sandbox.origin,
		adminToken: sandbox.adminToken,
		demoKey: sandbox.demoKey,
		demoAccountId: sandbox.demoAccountId,
	});
}
