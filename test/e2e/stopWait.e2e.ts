/**
 * Stop during Job > Wait for Completion, in a real n8n (2.41.1 or 1.123.81) under `n8n start`: a webhook starts
 * the wait on a job the service keeps showing as processing, and the execution is stopped over n8n's REST API
 * while the node sleeps between polls. The service refuses the wait's second listing with 429 and a Retry-After
 * of 125 s, longer than a request waits out (2 min), so the wait keeps to it and sleeps 125 s: a Stop that
 * waited for the node would answer only then, and no load on the machine makes two minutes pass by accident
 * (the poll schedule's own sleep of 6.75 s did pass on a loaded clean-clone run before n8n answered). The
 * test then waits past the end of that sleep, so a node that slept on would be seen sending its next listing.
 * It runs in the main lane (test/e2e/run.sh), one file at a time: in the real-time lane its set-up ran at once
 * with seven other files' beside jest, and a clean-clone run timed one of its requests out.
 * What a user sees is checked: the Stop answers at once, the execution is recorded as canceled when stopped,
 * and the node sends no request after it.
 * (n8n 1.x's own `sleep(ms, signal)` ignores the signal; n8n 1.123 records the cancel at once either way, so
 * that the node's own wait ends on the signal is timed by test/nodes/Embroidery/helpers/waiting.stop.test.ts,
 * with 1.123's sleep.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { examplesDir } from '../../scripts/examples';
import { fetchN8n, sleep, type LocalN8n } from '../../scripts/n8n';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	importAccountCredential,
	n8nUnderTest,
	openServedEnvironment,
} from './support/environment';
import { embroideryStep, linearWorkflow } from './support/workflows';

const credential = { id: 'embroideryStopW1', name: 'Embroidery for the stop test' };
const workflowId = 'e2eStopWait00001';
/** What the service asks the wait to keep to before its next listing: longer than a request waits out. */
const retryAfterSeconds = 125;

interface ExecutionSummary {
	id: string;
	status: string;
	stoppedAt?: string | null;
}

/** Waits until `done()` holds, checking every 200 ms, for at most `limitMs`. */
async function until(
	done: () => boolean | Promise<boolean>,
	limitMs: number,
	what: string,
): Promise<void> {
	const deadline = Date.now() + limitMs;
	while (!(await done())) {
		if (Date.now() > deadline)
			throw new Error(`Gave up waiting for ${what} after ${limitMs / 1000} s`);
		await sleep(200);
	}
}

describe(`Stop during Wait for Completion, in ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let variant: VariantService;
	/** When the variant service saw each of the node's listings (GET /jobs), in ms since the epoch. */
	const listedAt: number[] = [];

	beforeAll(async () => {
		const environment = await openServedEnvironment();
		({ n8n } = environment);
		const { sandbox } = environment;
		variant = await startVariantService(sandbox.origin);
		const { key } = await importAccountCredential(n8n, sandbox, {
			ref: credential,
			creditBalance: 10,
			baseUrl: variant.baseUrl,
		});
		const design = {
			name: 'Star.JEF',
			bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
		};
		const job = await createJob(
			{ baseUrl: sandbox.baseUrl, demoKey: key },
			{ workflow: 'conversion', format: 'dst' },
			design,
		);
		await waitForJobEnd({ baseUrl: sandbox.baseUrl, demoKey: key }, job);
		// The job never ends, as far as the node can tell, and the second listing is refused for 125 s.
		variant.on((request) => {
			if (request.route !== 'GET /jobs') return undefined;
			listedAt.push(Date.now());
			if (listedAt.length === 2) {
				return {
					status: 429,
					headers: { 'retry-after': String(retryAfterSeconds) },
					body: { message: 'Too Many Attempts.' },
				};
			}
			return {
				rewrite: (body) => ({
					...body,
					data: (body.data as Array<Record<string, unknown>>).map((item) => ({
						...item,
						status: 'processing',
					})),
				}),
			};
		});
		await n8n.importWorkflows([
			linearWorkflow(workflowId, 'Stop: wait for a job that never ends', [
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: 'e2e-stop-wait',
					position: [0, 0],
					parameters: {
						httpMethod: 'POST',
						path: 'stop-wait',
						responseMode: 'onReceived',
						options: {},
					},
				},
				{
					...embroideryStep(
						'Wait',
						{
							resource: 'job',
							operation: 'waitForCompletion',
							jobId: job.id,
							workflow: 'conversion',
							timeout: 600,
						},
						credential,
					),
					position: [220, 0],
				},
			]),
		]);
		await n8n.activateWorkflows([workflowId]);
	});

	afterAll(async () => {
		await variant?.close();
	});

	it(
		'ends the execution at once while the node sleeps between polls, and the node sends nothing ' +
			'more after the Stop',
		async () => {
			const response = await fetchN8n(`${n8n.url}/webhook/stop-wait`, {
				method: 'POST',
				signal: AbortSignal.timeout(30_000),
			});
			expect(response.status).toBe(200);
			await until(
				() => variant.of('GET /jobs').some((request) => request.status === 429),
				60_000,
				'the refused listing',
			);
			// The earliest the node's own sleep could end: what "at once" is measured against.
			const sleepEndsAt = listedAt[1] + retryAfterSeconds * 1000;
			await sleep(1000);
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const listed = await n8n.rest<{ results: ExecutionSummary[] }>(
				'GET',
				`/rest/executions?filter=${filter}`,
			);
			const running = listed.results.find(
				(execution) => execution.status === 'running' || execution.status === 'new',
			);
			expect(running).toBeDefined();
			const sentBeforeStop = variant.requests.length;

			await n8n.rest('POST', `/rest/executions/${running!.id}/stop`);
			// Answered while the node still slept: a Stop that waited for the node would answer after its sleep.
			expect(Date.now()).toBeLessThan(sleepEndsAt);

			let execution: ExecutionSummary | undefined;
			const canceled = async () =>
				(execution = await n8n.rest<ExecutionSummary>('GET', `/rest/executions/${running!.id}`))
					.status === 'canceled';
			await until(canceled, 60_000, 'the execution to be recorded as canceled');
			// Recorded as ended while the node slept, not when its sleep would have ended.
			expect(new Date(String(execution!.stoppedAt)).getTime()).toBeLessThan(sleepEndsAt);
			// Past the end of the sleep the node was in: had it slept on, it would send its next listing by now.
			await sleep(Math.max(0, sleepEndsAt + 5000 - Date.now()));
			expect(variant.of('GET /jobs')).toHaveLength(2);
			expect(variant.requests.length).toBe(sentBeforeStop);
		},
	);
});
