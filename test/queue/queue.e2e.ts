/**
 * n8n in queue mode, for real: Postgres and Redis, one main (editor, webhooks, the poll trigger)
 * and two workers that run every execution, each instance with the package in its own ~/.n8n/nodes,
 * binary data in the database (n8n's default in queue mode). Run with test/queue/run.sh.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { measurePattern, readPattern } from '../../sandbox/engine';
import { openQueueEnvironment, type QueueEnvironment } from './support/environment';
import { runBigFileTransfers, runOrderBurst, runTriggerAcrossRestart } from './support/scenarios';

describe('n8n 2.41.1 in queue mode: one main, two workers, Postgres and Redis', () => {
	let env: QueueEnvironment;

	beforeAll(async () => {
		env = await openQueueEnvironment((stage) => console.log(`queue environment: ${stage}`));
	}, 900_000);

	afterAll(async () => {
		await env?.close();
	});

	it(
		'runs a burst of 20 shop orders through the webhook ' +
			'example on both workers, each order delivered once',
		async () => {
			const burst = await runOrderBurst(env, 20);

			const failed = burst.executions
				.filter(({ status }) => status !== 'success')
				.map(({ orderId, error }) => `${orderId}: ${error}`);
			expect(failed).toEqual([]);
			for (const response of burst.responses) {
				expect({ orderId: response.orderId, status: response.httpStatus }).toEqual({
					orderId: response.orderId,
					status: 200,
				});
				expect(response.body).toEqual(
					expect.objectContaining({ status: 'completed', downloadsUnlocked: true }),
				);
			}
			// One successful execution per order, each started by exactly one worker and by no other process.
			expect(burst.executions.map(({ orderId }) => orderId).sort()).toEqual(burst.orders);
			for (const execution of burst.executions) {
				expect(execution.status).toBe('success');
				expect(execution.ranBy).toHaveLength(1);
				expect(execution.ranBy[0]).toMatch(/^worker-\d$/);
			}
			const perWorker = new Set(burst.executions.map(({ ranBy }) => ranBy[0]));
			expect([...perWorker].sort()).toEqual(['worker-1', 'worker-2']);
			// Delivered once: one machine file per order, one digitising job per order at the service, each unlocked.
			expect(burst.delivered).toEqual(burst.orders.map((orderId) => `order-${orderId}.dst`));
			expect(burst.jobs).toHaveLength(20);
			for (const job of burst.jobs)
				expect(job).toEqual(
					expect.objectContaining({
						kind: 'digitising',
						status: 'completed',
						downloadsUnlocked: true,
					}),
				);
			const saved = measurePattern(
				readPattern(await readFile(join(env.folders.orders, 'order-Q-001.dst')), 'dst'),
			);
			expect(saved.widthMm).toBeGreaterThan(50);
			expect(saved.widthMm).toBeLessThanOrEqual(61);
		},
	);

	it(
		'emits each job ending exactly once from the trigger on main while workers run the ' +
			'workflow, across a restart of main',
		async () => {
			const result = await runTriggerAcrossRestart(env);

			const all = [...result.jobs.before, ...result.jobs.whileDown, ...result.jobs.after];
			expect([...result.emitted.keys()].sort()).toEqual([...all].sort());
			for (const id of all) expect({ id, times: result.emitted.get(id) }).toEqual({ id, times: 1 });
			expect(result.executions.length).toBeGreaterThan(0);
			for (const execution of result.executions) {
				expect(execution.status).toBe('success');
				expect(execution.ranBy).toHaveLength(1);
				expect(execution.ranBy[0]).toMatch(/^worker-\d$/);
			}
			// The example stores each completed job's free preview while it is locked (these jobs are never unlocked,
			// and the example spends no credits on them): one per ending.
			expect(result.stored).toEqual(all.map((id) => `${id}-Star-preview.png`).sort());
		},
	);

	it(
		'moves a 50 MB file through the database binary mode: HTTP Request fetch, Embroidery upload ' +
			'and download, HTTP Request download',
		async () => {
			const result = await runBigFileTransfers(env);

			for (const run of [result.upload, result.download, result.httpRequest]) {
				expect({ what: run.what, status: run.httpStatus }).toEqual({ what: run.what, status: 200 });
				expect(run.worker).toMatch(/^worker-\d$/);
				expect(run.stored?.id).toMatch(/^database:/);
				// The bytes n8n keeps in Postgres are the file's, every one of them.
				expect(run.inDatabase).toEqual({ bytes: result.bytes, sha256: result.sha256 });
				expect(run.peakRssMb).toBeGreaterThan(0);
			}
			expect(result.job).toEqual(expect.objectContaining({ status: 'completed' }));
			console.log(
				[result.upload, result.download, result.httpRequest]
					.map(
						(run) =>
							`${run.what}: ${run.worker}, RSS ${run.rssBeforeMb?.toFixed(0)} MiB before, ` +
							`peak ${run.peakRssMb?.toFixed(0)} MiB, ${run.seconds.toFixed(1)} s`,
					)
					.join('\n'),
			);
		},
	);
});
