/** What global-setup prepares once per run and every e2e file opens: one n8n user folder, one sandbox. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { LocalN8n, n8nRuntime, type CredentialExport, type Owner } from '../../../scripts/n8n';
import { sandboxAdmin } from '../../support/sandbox';

export interface SandboxInfo {
	baseUrl: string;
	origin: string;
	adminToken: string;
	demoKey: string;
	demoAccountId: string;
}

export interface E2eEnvironment {
	/** Scratch folder of this run ($TMPDIR/embroidery-e2e-*), removed after the run unless EMBROIDERY_E2E_KEEP=1. */
	root: string;
	/** The folder workflows may read and write with "Read/Write Files from Disk". */
	filesDir: string;
	n8n: LocalN8n;
	sandbox: SandboxInfo;
}

const rootKey = 'EMBROIDERY_E2E_ROOT';
const sandboxKey = 'EMBROIDERY_E2E_SANDBOX';

/** The credentials imported into the e2e n8n, by the role they play in the tests. */
export const e2eCredentials = {
	demo: { id: 'embroideryDemo01', name: 'Embroidery sandbox (demo account)' },
	wrongKey: { id: 'embroideryWrong1', name: 'Embroidery with a wrong key' },
	readOnly: { id: 'embroideryRead01', name: 'Embroidery key without jobs:write' },
} as const;

/** The editor account of the e2e n8n; whichever file starts n8n first sets it up. */
export const e2eOwner: Owner = {
	email: 'owner@example.com',
	password: 'Embroidery1',
	firstName: 'E2e',
	lastName: 'Owner',
};

/**
 * The longest the set-up of a file in the real-time lane may take: test/e2e/run.sh starts every such file at once,
 * beside jest's tier and queue mode, so on 2 cores each n8n command (import, publish, start) takes many times its
 * CPU in wall time (a start took 105 s for 21 s of CPU in a clean-clone run here; on CI two set-ups passed 300 s).
 * Each step inside is bounded on its own (an n8n command by 120 s, the start by 180 s, the activation by 120 s):
 * this only keeps jest's 300 s from cutting their sum short.
 */
export const realTimeSetUpMs = 600_000;

/**
 * The n8n of this jest worker: global-setup prepares `n8n/` (package, credentials) and never starts it; each
 * worker copies it once to a folder of its own, so files that run side by side (test/e2e/run.sh's real-time
 * lane) never start two n8n on one database. Its `n8n start` serves the editor's pages only for a file that
 * opens them in a browser (`editor`): the others drive n8n through its REST API and webhooks, and each start
 * without the pages costs about 4 CPU seconds less. That file (the journey, a user's first steps in the editor)
 * gets a copy of its own: the editor would show what the worker's earlier files left (their workflows, and their
 * credentials for services they have closed, one of which n8n 1.x gave the journey's new node).
 */
export function n8nOptions(root: string, editor = false) {
	const worker = process.env.JEST_WORKER_ID ?? '1';
	return {
		userFolder: join(root, editor ? `n8n-editor${worker}` : `n8n-worker${worker}`),
		fileAccess: [join(root, 'files')],
		encryptionKey: 'embroidery-e2e',
		editor,
		env: noTaskRunner,
	};
}

/**
 * No workflow of the suites has a Code node, the one thing n8n's task runners run, so n8n 2.x launches none: its
 * broker waits for an external runner (as in n8n's recommended production setup) that no task ever asks for. The
 * runner n8n 2.x launches by default costs each start 1 to 3 CPU seconds (2.41.1 on 2 idle cores: 10.3 and 11.1
 * CPU-s to ready with it, 9.2 and 7.7 without), and the suites start n8n 2.x about 17 times. n8n 1.x launches
 * none unless N8N_RUNNERS_ENABLED is set.
 */
const noTaskRunner = {
	N8N_RUNNERS_MODE: 'external',
	N8N_RUNNERS_AUTH_TOKEN: 'embroidery-e2e-no-runner',
};

/** The user folder global-setup prepares for the workers to copy. */
export function preparedUserFolder(root: string): string {
	return join(root, 'n8n');
}

export function credentialExports(sandbox: SandboxInfo, readOnlyKey: string): CredentialExport[] {
	const credential = (ref: { id: string; name: string }, apiKey: string): CredentialExport => ({
		...ref,
		type: 'embroideryApi',
		data: { apiKey, baseUrl: sandbox.baseUrl },
	});
	return [
		credential(e2eCredentials.demo, sandbox.demoKey),
		credential(e2eCredentials.wrongKey, 'emb_sandbox_this_key_does_not_exist_000000'),
		credential(e2eCredentials.readOnly, readOnlyKey),
	];
}

export function shareEnvironment(root: string, sandbox: SandboxInfo): void {
	process.env[rootKey] = root;
	process.env[sandboxKey] = JSON.stringify(sandbox);
}

/**
 * This worker's n8n user folder and the sandbox, with n8n stopped: the file starts n8n when it needs it (after
 * its imports and publishing, as a user's restart would find them) and stops it in its afterAll.
 */
export async function openEnvironment(options: { editor?: boolean } = {}): Promise<E2eEnvironment> {
	const environment = await prepareEnvironment(options.editor);
	await quieten(environment.n8n);
	// The worker's served n8n, idle from here on, stops too (the next file on its folder would stop it anyway).
	if (options.editor) await stopServedIn(n8nOptions(environment.root).userFolder);
	return environment;
}

/** Stops the n8n an earlier file left running on a user folder (`openServedEnvironment`), if one runs. */
async function stopServedIn(userFolder: string): Promise<void> {
	const served = LocalN8n.leftover(userFolder);
	if (served) await LocalN8n.stopLeftover(userFolder, served);
}

/** Readies the user folder for an n8n start of this file's: nothing running on it, nothing published. */
async function quieten(n8n: LocalN8n): Promise<void> {
	// A served n8n an earlier file left running (`openServedEnvironment`) would share the database with this
	// file's own n8n start.
	await stopServedIn(n8n.userFolder);
	// The files of a worker run one after another on its user folder: what an earlier file published (a poll
	// trigger retrying failed jobs, a webhook under the same path) would come alive under this file's n8n start.
	if (n8n.hasPublished) await n8n.unpublishAllWorkflows();
}

/**
 * This worker's n8n running and signed in, for a file that runs workflows through its REST API (`execute`) and
 * its webhooks (`LocalN8n.activateWorkflows`), as a user's n8n that keeps running: the first such file starts it and
 * leaves it running, the next ones use it, and `openEnvironment` or the global teardown stops it. One boot (about
 * 14 s of CPU) for them all. The file's imports go to the database, where n8n reads a workflow and its
 * credentials when it runs them: over REST in n8n 2.x (`LocalN8n.importCredentials`, `importWorkflows`); in 1.x the
 * credentials over REST and the workflows with the CLI.
 */
export async function openServedEnvironment(): Promise<E2eEnvironment> {
	const environment = await prepareEnvironment();
	const running = LocalN8n.leftover(environment.n8n.userFolder);
	if (running && running.startedBy === process.pid) {
		const n8n = await LocalN8n.attach(n8nOptions(environment.root), running);
		await n8n.resumeSession(e2eOwner);
		return { ...environment, n8n };
	}
	const { n8n } = environment;
	await quieten(n8n);
	await n8n.start();
	await n8n.signIn(e2eOwner);
	return environment;
}

/**
 * A fresh credits account of the sandbox, and the credential `ref` for its key in `n8n`, pointed at `baseUrl` (the
 * sandbox's own, or a variant service's in front of it). For a file whose calls must not share the demo account's
 * balance or its key's rate window with the files before it. Returns the account, to reach the sandbox directly.
 */
export async function importAccountCredential(
	n8n: LocalN8n,
	sandbox: SandboxInfo,
	options: { ref: { id: string; name: string }; creditBalance: number; baseUrl?: string },
): Promise<{ accountId: string; key: string }> {
	const { accountId, key } = await sandboxAdmin(sandbox).createAccountWithKey({
		plan: 'credits',
		creditBalance: options.creditBalance,
	});
	await n8n.importCredentials([
		{
			...options.ref,
			type: 'embroideryApi',
			data: { apiKey: key, baseUrl: options.baseUrl ?? sandbox.baseUrl },
		},
	]);
	return { accountId, key };
}

/** Stops what `openServedEnvironment` left running in the run's user folders (global teardown). */
export async function stopServedN8n(root: string): Promise<void> {
	const folders = existsSync(root) ? await readdir(root) : [];
	await Promise.all(
		folders
			.filter((folder) => folder.startsWith('n8n-worker'))
			.map(async (folder) => await stopServedIn(join(root, folder))),
	);
}

async function prepareEnvironment(editor = false): Promise<E2eEnvironment> {
	const root = process.env[rootKey];
	const sandbox = process.env[sandboxKey];
	if (!root || !sandbox)
		throw new Error(
			'Run the end-to-end suite with "npm run test:e2e" (its global setup prepares n8n).',
		);
	const options = n8nOptions(root, editor);
	if (!existsSync(options.userFolder))
		await cp(preparedUserFolder(root), options.userFolder, { recursive: true });
	return {
		root,
		filesDir: join(root, 'files'),
		n8n: await LocalN8n.create(options),
		sandbox: JSON.parse(sandbox) as SandboxInfo,
	};
}

/** "n8n 1.123.81 on Node v22.23.3": which n8n this run drives (test/e2e/run.sh picks it). */
export function n8nUnderTest(): string {
	const runtime = n8nRuntime();
	const node = execFileSync(runtime.node, ['-v'], { encoding: 'utf8' }).trim();
	return `n8n ${runtime.version} on Node ${node}`;
}
