/**
 * The Embroidery Trigger under n8n 2.41's scheduler (a new poll context for every poll), published in a
 * running `n8n start` against the suite's sandbox behind a loopback proxy: a poll that starts while a slow one
 * runs is skipped, so the ending is emitted once. Real minutes (n8n refuses faster polls): test/e2e/run.sh runs
 * it in the real-time lane, beside triggerFailures.e2e.ts and the other files. n8n 1.x has no such scheduler.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { examplesDir } from '../../scripts/examples';
import { LocalN8n, nodeItems, n8nRuntime, sleep } from '../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	n8nOptions,
	n8nUnderTest,
	openEnvironment,
	realTimeSetUpMs,
	type E2eEnvironment,
} from './support/environment';
import {
	executionsOf,
	listingsOf,
	startAndPublish,
	until,
	waitForExecutions,
} from './support/triggers';

(n8nRuntime().major >= 2 ? describe : describe.skip)(
	`The trigger under n8n 2.41's scheduler: a new poll context for every poll, in ${n8nUnderTest()}`,
	() => {
		const triggerId = 'e2eTrigSchedul01';
		const errorsId = 'e2eTrigSchedErr1';
		let environment: E2eEnvironment;
		let variant: VariantService;
		let n8n: LocalN8n;
		let direct: { baseUrl: string; demoKey: string };
		const listings = () => listingsOf(variant);

		beforeAll(async () => {
			environment = await openEnvironment();
			variant = await startVariantService(environment.sandbox.origin);
			// This worker's user folder (package installed, database set up), its n8n started with the scheduler on.
			// Polls may run 4 minutes here (n8n's default is 45 s), so a slow one is still running at the next minute.
			const options = n8nOptions(environment.root);
			n8n = await LocalN8n.create({
				...options,
				env: {
					...options.env,
					N8N_SCHEDULER_ENABLED: 'true',
					N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
					N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
					N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
					N8N_SCHEDULER_POLL_TIMEOUT: '300',
					N8N_SCHEDULER_LEASE_DURATION: '300',
				},
			});
			direct = await startAndPublish(n8n, environment, variant, {
				triggerId,
				errorsId,
				options: { downloadFiles: true },
			});
		}, realTimeSetUpMs);

		afterAll(async () => {
			await n8n?.stop();
			await variant?.close();
		});

		// Up to three minutes to the slow poll, then two more polls: longer than the suite's 300 s.
		it('a poll that starts while a slow one runs is skipped: the ending is emitted once', async () => {
			// The activation's poll and the first scheduled one (which saves the baseline) have listed the jobs.
			await until('two polls', async () => (listings() >= 2 ? true : undefined), 150_000);
			const design = {
				name: 'Star.JEF',
				bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
			};
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
