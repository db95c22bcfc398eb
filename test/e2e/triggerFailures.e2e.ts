/**
 * The Embroidery Trigger published under `n8n start` (2.41.1 or 1.123.81) against the suite's sandbox behind a
 * loopback proxy (test/support/variantService.ts): a key refused after activation reaches n8n's own error path, a
 * failed trigger execution and one run of the workflow's error workflow, instead of only the log; and, in n8n 2.41
 * with its scheduler (a new poll context for every poll), a poll that starts while a slow one runs is skipped, so
 * the ending is emitted once.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { waitForExecutions, type ExecutionSummary } from '../../scripts/demo';
import { examplesDir } from '../../scripts/examples';
import {
	LocalN8n,
	nodeItems,
	n8nRuntime,
	sleep,
	type CredentialExport,
	type WorkflowExport,
} from '../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { sandboxAdmin } from '../support/sandbox';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	e2eOwner,
	n8nOptions,
	n8nUnderTest,
	openEnvironment,
	type E2eEnvironment,
} from './support/environment';
import { linearWorkflow } from './support/workflows';

const credential = { id: 'embroideryTrigFail', name: 'Embroidery trigger behind a proxy' };

function triggerWorkflow(
	id: string,
	errorWorkflowId: string,
	options: Record<string, unknown> = {},
): WorkflowExport {
	const workflow = linearWorkflow(id, `Trigger ${id}`, [
		{
			name: 'Job finished',
			type: 'n8n-nodes-embroidery.embroideryTrigger',
			typeVersion: 1.2,
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				events: ['completed', 'failed'],
				workflow: 'both',
				options,
			},
			credentials: { embroideryApi: credential },
			position: [0, 0],
		},
		{
			name: 'Received',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			parameters: {},
			position: [220, 0],
		},
	]);
	return { ...workflow, settings: { ...workflow.settings, errorWorkflow: errorWorkflowId } };
}

/** The error workflow: n8n runs it with what failed, and keeps that run as an execution of its own. */
function errorWorkflow(id: string): WorkflowExport {
	return linearWorkflow(id, `Errors of ${id}`, [
		{
			name: 'Error Trigger',
			type: 'n8n-nodes-base.errorTrigger',
			typeVersion: 1,
			parameters: {},
			position: [0, 0],
		},
	]);
}

/** Publishes (2.x) or activates (1.x) a workflow; n8n 2.41 runs only a published error workflow. */
async function publish(n8n: LocalN8n, ids: string[]): Promise<void> {
	for (const id of ids) await n8n.publishWorkflow(id);
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(1_000);
	}
}

async function executionsOf(n8n: LocalN8n, workflowId: string): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { results } = await n8n.rest<{ results: ExecutionSummary[] }>(
		'GET',
		`/rest/executions?filter=${filter}`,
	);
	return results;
}

describe(`The trigger's failures reach n8n's error path, in ${n8nUnderTest()}`, () => {
	let environment: E2eEnvironment;
	let variant: VariantService;
	const listings = () => variant.requests.filter((request) => request.route === 'GET /jobs').length;

	/** A fresh account: its credential through the proxy, and its key to reach the sandbox directly. */
	async function proxiedAccount(): Promise<{ exported: CredentialExport; apiKey: string }> {
		const { key } = await sandboxAdmin(environment.sandbox).createAccountWithKey({
			plan: 'credits',
			creditBalance: 10,
		});
		return {
			exported: {
				...credential,
				type: 'embroideryApi',
				data: { apiKey: key, baseUrl: variant.baseUrl },
			},
			apiKey: key,
		};
	}

	beforeAll(async () => {
		environment = await openEnvironment();
		variant = await startVariantService(environment.sandbox.origin);
	});

	afterAll(async () => {
		await variant?.close();
	});

	describe('a key refused after activation', () => {
		const triggerId = 'e2eTrigRefused01';
		const errorsId = 'e2eTrigErrors001';
		let n8n: LocalN8n;

		beforeAll(async () => {
			n8n = environment.n8n;
			await n8n.importCredentials([(await proxiedAccount()).exported]);
			await n8n.importWorkflows([errorWorkflow(errorsId), triggerWorkflow(triggerId, errorsId)]);
			await publish(n8n, n8nRuntime().major >= 2 ? [errorsId, triggerId] : [triggerId]);
			await n8n.start();
			await n8n.signIn(e2eOwner);
			await n8n.waitForActivation([triggerId]);
		});

		afterAll(async () => {
			await n8n.stop();
		});

		it(
			'ends in one failed execution and one run of the error workflow; the next failing poll is ' +
				'only logged',
			async () => {
				// The activation's poll took the baseline; from now on the service refuses the key.
				await until('the activation poll', async () => (listings() > 0 ? true : undefined), 90_000);
				variant.on((request) =>
					request.route === 'GET /jobs'
						? { status: 401, body: { message: 'The API key has been revoked.' } }
						: undefined,
				);
				const refusedFrom = listings();
				const [failed] = await waitForExecutions(n8n, triggerId, 1, 150_000);
				expect(failed.status).toBe('error');
				const run = await n8n.getExecution(failed.id);
				expect(run.data.resultData.error?.message).toMatch(/^Authentication failed/);
				const [reported] = await waitForExecutions(n8n, errorsId, 1, 60_000);
				const [errorItem] = nodeItems(await n8n.getExecution(reported.id), 'Error Trigger');
				expect(errorItem.json).toMatchObject({ workflow: { id: triggerId } });
				expect(JSON.stringify(errorItem.json)).toMatch(/Authentication failed/);
				// The next scheduled poll fails the same way: logged, not reported again.
				await until(
					'a second refused poll',
					async () => (listings() >= refusedFrom + 2 ? true : undefined),
					150_000,
				);
				await sleep(5_000);
				expect(await executionsOf(n8n, triggerId)).toHaveLength(1);
				expect(await executionsOf(n8n, errorsId)).toHaveLength(1);
			},
		);
	});

	(n8nRuntime().major >= 2 ? describe : describe.skip)(
		"n8n 2.41's scheduler: a new poll context for every poll",
		() => {
			const triggerId = 'e2eTrigSchedul01';
			const errorsId = 'e2eTrigSchedErr1';
			let n8n: LocalN8n;
			let apiKey: string;

			beforeAll(async () => {
				variant.reset();
				// Polls may run 4 minutes here (n8n's default is 45 s), so a slow one is still running at the next minute.
				n8n = await LocalN8n.create({
					...n8nOptions(environment.root),
					userFolder: join(environment.root, 'n8n-scheduler'),
					env: {
						N8N_SCHEDULER_ENABLED: 'true',
						N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
						N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
						N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
						N8N_SCHEDULER_POLL_TIMEOUT: '300',
						N8N_SCHEDULER_LEASE_DURATION: '300',
					},
				});
				await n8n.installPackage();
				const account = await proxiedAccount();
				apiKey = account.apiKey;
				await n8n.importCredentials([account.exported]);
				await n8n.importWorkflows([
					errorWorkflow(errorsId),
					triggerWorkflow(triggerId, errorsId, { downloadFiles: true }),
				]);
				await publish(n8n, [errorsId, triggerId]);
				await n8n.start();
				await n8n.signIn(e2eOwner);
				await n8n.waitForActivation([triggerId]);
			});

			afterAll(async () => {
				await n8n?.stop();
			});

			// Up to three minutes to the slow poll, then two more polls: longer than the suite's 300 s.
			it('a poll that starts while a slow one runs is skipped: the ending is emitted once', async () => {
				// The activation's poll and the first scheduled one (which saves the baseline) have listed the jobs.
				await until('two polls', async () => (listings() >= 2 ? true : undefined), 150_000);
				const design = {
					name: 'Star.JEF',
					bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
				};
				const direct = { baseUrl: environment.sandbox.baseUrl, demoKey: apiKey };
				const job = await createJob(direct, { workflow: 'conversion', format: 'dst' }, design);
				await waitForJobEnd(direct, job);
				// The first preview the trigger fetches trickles for 90 s, past the next minute's poll.
				let previews = 0;
				variant.on((request) =>
					request.route.startsWith('GET /uploads/') && ++previews === 1
						? { trickle: { chunks: 4, everyMs: 30_000 } }
						: undefined,
				);
				const [emitted] = await waitForExecutions(n8n, triggerId, 1, 240_000);
				const listedWhileSlow = listings();
				// Two more scheduled polls after the emission: neither emits the ending again.
				await until(
					'two more polls',
					async () => (listings() >= listedWhileSlow + 2 ? true : undefined),
					180_000,
				);
				await sleep(10_000);
				const executions = await executionsOf(n8n, triggerId);
				expect(executions.map((execution) => execution.id)).toEqual([emitted.id]);
				const items = nodeItems(await n8n.getExecution(emitted.id), 'Job finished');
				expect(items.map((item) => item.json.id)).toEqual([job.id]);
				expect(await executionsOf(n8n, errorsId)).toEqual([]);
			}, 480_000);
		},
	);
});
