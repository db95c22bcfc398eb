/**
 * Wait for Completion on more jobs than the listing shows: each job outside the 50-job window costs its own
 * GET, paced at 55 a minute, so one round can outlast the timeout. The wait still ends within one poll
 * interval of its timeout. Real n8n-core executions against a scripted service; the node's clock is the
 * driven test clock (`useTestClock`): its waits pass as soon as no request is under way, so a minute of pacing
 * takes milliseconds, while the requests themselves take their real time (once, not scaled up as a clock
 * running 10 times faster than the wall did, which a loaded machine pushed past the poll interval).
 */
import { defaultPollSchedule } from '../../../../nodes/Embroidery/helpers/waiting';
import { clock, wallClock } from '../../../../nodes/Embroidery/transport';
import { runNode } from '../../../support/nodeRun';
import { useTestClock } from '../../../support/testClock';
import { detailedJob, freeUsage, listItem } from '../../support/fakeJobs';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';

jest.setTimeout(120_000);

const apiKey = 'emb_test_key_0123456789';

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The n-th of a run of job ids: ULIDs told apart by a two-letter prefix and a four-character count. */
function jobId(prefix: string, n: number): string {
	const tail = [3, 2, 1, 0].map((power) => crockford[Math.floor(n / 32 ** power) % 32]).join('');
	return `01J9Z3Q4W8Y6V5T2R1P0${prefix}${tail}`;
}

useTestClock();

describe('waiting on more than 50 jobs', () => {
	it(
		'ends within one poll interval of its timeout, even when the round of per-job look-ups ' +
			'would outlast it',
		async () => {
			// 50 newer jobs fill the listing; the 60 waited for are all outside it, and never end.
			const newer = Array.from({ length: 50 }, (_, n) => listItem(jobId('NW', n), 'processing'));
			const waited = Array.from({ length: 60 }, (_, n) => jobId('WT', n));
			const server = await startScriptedServer((request, response) => {
				if (request.url === '/api/v1/jobs')
					return sendJson(response, 200, { data: newer, freeUsage });
				const id = request.url.split('/').pop() ?? '';
				sendJson(response, 200, detailedJob(id, 'processing'));
			});
			try {
				const timeoutMs = 20_000;
				// Measured around the whole run, which begins a little before the wait does.
				const startedAt = clock.now();
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: {
						resource: 'job',
						operation: 'waitForCompletion',
						jobId: waited.join(','),
						workflow: 'conversion',
						timeout: timeoutMs / 1000,
					},
					input: [{}],
					onError: 'continueRegularOutput',
				});
				const elapsedMs = clock.now() - startedAt;
				expect(elapsedMs).toBeGreaterThanOrEqual(timeoutMs);
				expect(elapsedMs).toBeLessThanOrEqual(timeoutMs + defaultPollSchedule.maxDelayMs);
				// Every job is reported, as still running, with how to wait longer.
				expect(result.items).toHaveLength(60);
				expect(result.items.map((item) => String(item.json.error))).toEqual(
					waited.map(
						(id) =>
							expect.stringMatching(
								new RegExp(`^Job ${id} is still (processing|unknown) after 20 s`),
							) as unknown as string,
					),
				);
				// Nothing of the wait goes on after the node returned.
				const sent = server.requests.length;
				await wallClock.sleep(300);
				expect(server.requests).toHaveLength(sent);
			} finally {
				await server.close();
			}
		},
	);
});
