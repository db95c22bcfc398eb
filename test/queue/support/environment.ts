/**
 * One queue-mode environment for the suite and the benchmark: Postgres, Redis, the sandbox, and an
 * n8n main with two workers, holding the shipped shop-order and trigger examples and the 50 MB
 * workflows, all published. Each scenario uses its own sandbox account, so their jobs never meet.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	exampleIds,
	readExamples,
	useCredential,
	withLocalValues,
} from '../../../scripts/examples';
import type { CredentialExport, LocalN8n, Owner, WorkflowExport } from '../../../scripts/n8n';
import { sandboxAdmin, startSandbox, type RunningSandbox } from '../../support/sandbox';
import { QueueCluster } from './cluster';
import { startQueueServices, type QueueServices } from './services';
import { bigFileWorkflowExports } from './workflows';

export const queueOwner: Owner = {
	email: 'owner@example.com',
	password: 'Embroidery1',
	firstName: 'Queue',
	lastName: 'Owner',
};

export { exampleIds };

export interface ScenarioAccount {
	accountId: string;
	/** The workflows' key (in `credential`). */
	key: string;
	/**
	 * The test's own key for reading the account's jobs: the rate limit is per key, and a burst's workflows
	 * may spend their key's minute, so a read with theirs could be refused.
	 */
	readKey: string;
	credential: CredentialExport;
	/** For scripts/sandbox-client.ts, which calls the service as this account. */
	access: { baseUrl: string; demoKey: string };
}

export interface QueueEnvironment {
	root: string;
	services: QueueServices;
	sandbox: RunningSandbox;
	cluster: QueueCluster;
	accounts: { orders: ScenarioAccount; trigger: ScenarioAccount; files: ScenarioAccount };
	folders: { files: string; orders: string; finished: string; notices: string; served: string };
	close(): Promise<void>;
}

/** Hears each stage of the start, with the seconds since the start began. */
type Step = (message: string) => void;

/** Starts everything; on failure stops what already runs. `step` hears about each stage. */
export async function openQueueEnvironment(
	step: Step = () => undefined,
	options: { workers?: number } = {},
): Promise<QueueEnvironment> {
	const began = performance.now();
	const stage = (message: string) =>
		step(`${message} (${((performance.now() - began) / 1000).toFixed(0)} s)`);
	const root = await mkdtemp(join(tmpdir(), 'embroidery-queue-'));
	const files = join(root, 'files');
	const folders = {
		files,
		orders: join(files, 'orders'),
		finished: join(files, 'finished'),
		notices: join(files, 'notices'),
		served: join(root, 'served'),
	};
	for (const folder of Object.values(folders)) await mkdir(folder, { recursive: true });
	const cleanups: Array<() => Promise<void>> = [];
	const close = async () => {
		for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
		if (process.env.EMBROIDERY_QUEUE_KEEP !== '1') await rm(root, { recursive: true, force: true });
	};
	try {
		stage('Postgres and Redis');
		const services = await startQueueServices();
		cleanups.push(services.stop);
		const sandbox = await startSandbox({ port: 0, dataDir: join(root, 'sandbox') });
		cleanups.push(sandbox.close);
		const accounts = {
			orders: await scenarioAccount(sandbox, 'orders', 'queueOrdersKey01'),
			trigger: await scenarioAccount(sandbox, 'trigger', 'queueTriggerKy01'),
			files: await scenarioAccount(sandbox, 'files', 'queueFilesKey001'),
		};

		stage('n8n user folders with the package on every instance');
		const cluster = await QueueCluster.create({
			root,
			services,
			fileAccess: [files],
			workers: options.workers,
		});
		cleanups.push(async () => await cluster.stop());
		const main = cluster.main;

		stage('main, migrating the database');
		// Main's first start migrates the fresh database, so it gets twice a later start's 300 s (a hang's bound:
		// the migration alone took past 120 s beside the rest of npm test once). The credentials and workflows
		// then go in over REST, as the editor saves them: no CLI process, which would migrate first (8 CPU-s,
		// 12 s on an idle machine).
		await main.start(600_000);
		await main.signIn(queueOwner);
		stage('credentials, workflows, workers');
		await main.importCredentials(Object.values(accounts).map(({ credential }) => credential));
		const workflows = await queueWorkflows(accounts, folders);
		await main.importWorkflows(workflows);
		await cluster.startWorkers();
		// Published the way the editor's Publish button does it, on the running main (no CLI start per workflow).
		for (const { id } of workflows) await publish(main, id);
		await main.waitForActivation(workflows.map(({ id }) => id));
		stage('ready');
		return { root, services, sandbox, cluster, accounts, folders, close };
	} catch (error) {
		await close();
		throw error;
	}
}

async function publish(main: LocalN8n, workflowId: string): Promise<void> {
	const { versionId } = await main.rest<{ versionId: string }>(
		'GET',
		`/rest/workflows/${workflowId}`,
	);
	await main.rest('POST', `/rest/workflows/${workflowId}/activate`, { versionId });
}

async function scenarioAccount(
	sandbox: RunningSandbox,
	name: string,
	credentialId: string,
): Promise<ScenarioAccount> {
	const admin = sandboxAdmin(sandbox);
	const { accountId, key } = await admin.createAccountWithKey({
		name: `Queue ${name}`,
		plan: 'internal',
	});
	const readKey = (await admin.createKey(accountId, ['jobs:read'])).key;
	const credential: CredentialExport = {
		id: credentialId,
		name: `Embroidery sandbox (${name})`,
		type: 'embroideryApi',
		data: { apiKey: key, baseUrl: sandbox.baseUrl },
	};
	return {
		accountId,
		key,
		readKey,
		credential,
		access: { baseUrl: sandbox.baseUrl, demoKey: key },
	};
}

/** The two examples as they ship (this machine's folders, the scenario's credential) and the 50 MB workflows. */
async function queueWorkflows(
	accounts: QueueEnvironment['accounts'],
	folders: QueueEnvironment['folders'],
): Promise<WorkflowExport[]> {
	const examples = new Map((await readExamples()).map(({ workflow }) => [workflow.id, workflow]));
	const example = (id: string) => {
		const workflow = examples.get(id);
		if (!workflow) throw new Error(`examples/ has no workflow ${id}`);
		return workflow;
	};
	return [
		withLocalValues(useCredential(example(exampleIds.shopOrder), accounts.orders.credential), {
			deliveryFolder: folders.orders,
		}),
		withLocalValues(useCredential(example(exampleIds.finishedJobs), accounts.trigger.credential), {
			deliveryFolder: folders.finished,
			noticeFolder: folders.notices,
		}),
		...bigFileWorkflowExports(accounts.files.credential),
	];
}

/** The account's recent jobs as the service lists them (GET /jobs). */
export async function listJobs(account: ScenarioAccount): Promise<Array<Record<string, unknown>>> {
	const response = await fetch(`${account.access.baseUrl}/jobs`, {
		headers: { Authorization: `Bearer ${account.readKey}`, Accept: 'application/json' },
		signal: AbortSignal.timeout(30_000),
	});
	if (!response.ok)
		throw new Error(`GET /jobs answered ${response.status}: ${await response.text()}`);
	return ((await response.json()) as { data: Array<Record<string, unknown>> }).data;
}
