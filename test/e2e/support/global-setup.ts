import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LocalN8n } from '../../../scripts/n8n';
import { sandboxAdmin, startSandbox } from '../../support/sandbox';
import { credentialExports, n8nOptions, preparedUserFolder, shareEnvironment } from './environment';

/**
 * Once per run: the sandbox on a free port, and one n8n user folder with the built package and the
 * suite's credentials, in a folder of its own so that runs started side by side never meet. It is
 * outside the repository, like a user's n8n, so the package can only use what n8n itself provides.
 */
export default async function globalSetup(): Promise<void> {
	const root = await mkdtemp(join(tmpdir(), 'embroidery-e2e-'));
	await mkdir(join(root, 'files'), { recursive: true });
	const sandbox = await startSandbox({
		port: 0,
		dataDir: join(root, 'sandbox'),
		warmUpWorkers: true,
	});
	(globalThis as { embroiderySandbox?: typeof sandbox }).embroiderySandbox = sandbox;
	const readOnly = await sandboxAdmin(sandbox).createKey(sandbox.demoAccountId, [
		'formats:read',
		'usage:read',
		'jobs:read',
	]);

	const n8n = await LocalN8n.create({
		...n8nOptions(root),
		userFolder: preparedUserFolder(root),
		migratedDatabase: true,
	});
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
