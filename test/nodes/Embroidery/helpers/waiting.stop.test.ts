/**
 * Stop during Wait for Completion with n8n 1.x's `sleep`, which ignores the signal it is given (n8n-workflow
 * 1.123: a bare timer). n8n 1.123 records the cancel at once whatever the node does, so the end-to-end test
 * (test/e2e/stopWait.e2e.ts) cannot see a node that goes on sleeping; here the wait itself is timed: it must
 * end as soon as the execution is stopped, not when its sleep would have run out.
 */
import { waitForJobs } from '../../../../nodes/Embroidery/helpers/waiting';
import { registerNodeType, testNodeType } from '../../../support/nodeTypes';
import { runNode } from '../../../support/nodeRun';
import { freeUsage, jobIds, listItem } from '../../support/fakeJobs';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';

jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<Record<string, unknown>>('n8n-workflow');
	// n8n 1.123's sleep: a timer, and the signal is ignored.
	return {
		...actual,
		sleep: async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms)),
	};
});

const apiKey = 'emb_test_key_0123456789';

/**
 * Every sleep between listings: long beside what a loaded machine adds to the stop (seconds at most), so "ended
 * at the stop" and "ended when the sleep ran out" stay far apart however busy the cores are.
 */
const sleepMs = 20_000;

async function until(done: () => boolean, limitMs: number): Promise<void> {
	for (let waited = 0; !done() && waited < limitMs; waited += 20)
		await new Promise((resolve) => setTimeout(resolve, 20));
}

it(
	'with a sleep that ignores the signal, the wait still ends when the execution is stopped, and ' +
		'sends nothing more',
	async () => {
		const server = await startScriptedServer((_request, response) =>
			sendJson(response, 200, { data: [listItem(jobIds.a, 'processing')], freeUsage }),
		);
		let settledAt: number | undefined;
		let outcome: unknown;
		registerNodeType(
			'harness.waitProbe',
			testNodeType('waitProbe', 'Waits for one job that never ends', async (context) => {
				try {
					outcome = await waitForJobs(context, [{ id: jobIds.a, workflow: 'conversion' }], {
						timeoutMs: 600_000,
						schedule: { firstDelayMs: sleepMs, maxDelayMs: sleepMs, factor: 1, jitter: 0 },
					});
				} catch (error) {
					outcome = error;
				} finally {
					settledAt = Date.now();
				}
			}),
		);
		try {
			const stop = new AbortController();
			const running = runNode({
				credentials: { apiKey, baseUrl: server.baseUrl },
				parameters: {},
				nodeType: 'harness.waitProbe',
				signal: stop.signal,
			});
			// The first listing is followed by a sleep of 20 s.
			await until(() => server.requests.length >= 1, 60_000);
			await new Promise((resolve) => setTimeout(resolve, 300));
			const stoppedAt = Date.now();
			stop.abort();
			await running;
			await until(() => settledAt !== undefined, 10_000);
			// Well before the sleep would have ended (19.7 s after the stop).
			expect(settledAt! - stoppedAt).toBeLessThan(sleepMs / 2);
			expect(String((outcome as Error).message)).toMatch(/cancel/i);
			const sent = server.requests.length;
			// Past the time the ignored sleep runs out: no listing follows it.
			await new Promise((resolve) => setTimeout(resolve, sleepMs + 1000));
			expect(server.requests).toHaveLength(sent);
		} finally {
			await server.close();
		}
	},
);
