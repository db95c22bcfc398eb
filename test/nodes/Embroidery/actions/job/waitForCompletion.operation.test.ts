/** The action node against a scripted service: Wait for Completion of many jobs, and listings that fail. */
import { defaultPollSchedule } from '../../../../../nodes/Embroidery/helpers/waiting';
import { defaultRetryPolicy } from '../../../../../nodes/Embroidery/transport';
import { runNode } from '../../../../support/nodeRun';
import { useTestClock } from '../../../../support/testClock';
import { detailedJob, freeUsage, jobIds, listItem } from '../../../support/fakeJobs';
import { apiKey, withServer, useQuickRetries, waitFor } from '../../../support/scriptedRuns';
import { sendJson } from '../../../support/scriptedServer';

describe('waiting for many jobs', () => {
	test(
		'one listing per round refreshes listed jobs; only a job outside the window or a failed one ' +
			'is fetched alone',
		async () => {
			let round = 0;
			const alone: string[] = [];
			await withServer(
				(request, response) => {
					if (request.url === '/api/v1/jobs') {
						round++;
						return sendJson(response, 200, {
							data: [
								listItem(jobIds.a, round === 1 ? 'queued' : 'completed'),
								listItem(jobIds.c, 'failed'),
							],
							freeUsage,
						});
					}
					const id = request.url.split('/').pop()!;
					alone.push(`${round}:${id}`);
					if (id === jobIds.c)
						return sendJson(
							response,
							200,
							detailedJob(id, 'failed', {
								failureCode: 'engine_error',
								failureReason: 'The engine stopped.',
							}),
						);
					sendJson(response, 200, detailedJob(id, round === 1 ? 'processing' : 'completed'));
				},
				async (server) => {
					const started = Date.now();
					const result = await runNode({
						credentials: { apiKey, baseUrl: server.baseUrl },
						// Warnings off: this test counts the waiting's own requests (warnings cost one job GET per listed job).
						parameters: waitFor({ timeout: 60, showWarnings: false }),
						input: [jobIds.a, jobIds.b, jobIds.c].map((id) => ({ json: { id } })),
					});
					expect(result.error).toBeUndefined();
					expect(round).toBe(2);
					// B (outside the listing) every round, C once for its failure code; A comes from the listing alone.
					expect(alone.sort()).toEqual([`1:${jobIds.b}`, `1:${jobIds.c}`, `2:${jobIds.b}`].sort());
					expect(
						result.items.map((item) => [
							item.json.id,
							item.json.workflow,
							item.json.status,
							item.pairedItem,
						]),
					).toEqual([
						[jobIds.a, 'conversion', 'completed', { item: 0 }],
						[jobIds.b, 'conversion', 'completed', { item: 1 }],
						[jobIds.c, 'conversion', 'failed', { item: 2 }],
					]);
					expect(result.items[0].json).not.toHaveProperty('warnings');
					expect(result.items[2].json).toMatchObject({
						failureCode: 'engine_error',
						failureReason: 'The engine stopped.',
					});
					expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
				},
			);
		},
	);

	test("Include Full Job fetches each completed job's detail once", async () => {
		const fetched: string[] = [];
		await withServer(
			(request, response) => {
				if (request.url === '/api/v1/jobs') {
					return sendJson(response, 200, {
						data: [listItem(jobIds.a, 'completed'), listItem(jobIds.b, 'completed')],
						freeUsage,
					});
				}
				const id = request.url.split('/').pop()!;
				fetched.push(id);
				sendJson(
					response,
					200,
					detailedJob(id, 'completed', {
						warnings: ['PES v1 only'],
						events: [{ type: 'completed' }],
					}),
				);
			},
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: waitFor({ timeout: 60, includeFullJob: true }),
					input: [jobIds.a, jobIds.b].map((id) => ({ json: { id } })),
				});
				expect(result.error).toBeUndefined();
				expect(fetched.sort()).toEqual([jobIds.a, jobIds.b].sort());
				expect(result.items.map((item) => item.json.warnings)).toEqual([
					['PES v1 only'],
					['PES v1 only'],
				]);
				expect(result.items[0].json).toMatchObject({
					id: jobIds.a,
					workflow: 'conversion',
					events: [{ type: 'completed' }],
				});
			},
		);
	});

	test(
		"shows a completed job's attemptCount, as Unlock and Download do, from the detail its " +
			'warnings come with',
		async () => {
			await withServer(
				(request, response) => {
					if (request.url === '/api/v1/jobs')
						return sendJson(response, 200, { data: [listItem(jobIds.a, 'completed')], freeUsage });
					sendJson(response, 200, detailedJob(jobIds.a, 'completed', { attemptCount: 1 }));
				},
				async (server) => {
					const result = await runNode({
						credentials: { apiKey, baseUrl: server.baseUrl },
						parameters: waitFor({ timeout: 60 }),
						input: [{ json: { id: jobIds.a } }],
						typeVersion: 3,
					});
					expect(result.error).toBeUndefined();
					expect(result.items.map((item) => [item.json.id, item.json.attemptCount])).toEqual([
						[jobIds.a, 1],
					]);
				},
			);
		},
	);

	test('a job that cannot be looked up fails alone; the others are still waited for', async () => {
		await withServer(
			(request, response) => {
				if (request.url === '/api/v1/jobs')
					return sendJson(response, 200, { data: [listItem(jobIds.a, 'completed')], freeUsage });
				if (request.url.endsWith(jobIds.b))
					return sendJson(response, 404, { message: 'Job not found.' });
				sendJson(response, 200, detailedJob(jobIds.a, 'completed'));
			},
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: waitFor({ timeout: 30 }),
					input: [{ json: { id: jobIds.b } }, { json: { id: jobIds.a } }],
					onError: 'continueRegularOutput',
				});
				expect(
					result.items.map((item) => [item.pairedItem, item.json.status ?? item.json.httpCode]),
				).toEqual([
					[{ item: 0 }, '404'],
					[{ item: 1 }, 'completed'],
				]);
				expect(result.items[0].json.error).toMatch(/Not found: Job not found/);
			},
		);
	});

	test('a refused listing fails every item under Continue On Fail, and the run without it', async () => {
		await withServer(
			(_request, response) => sendJson(response, 401, { message: 'Unauthenticated.' }),
			async (server) => {
				const parameters = {
					resource: 'job',
					operation: 'waitForCompletion',
					jobId: '={{ $json.id }}',
					workflow: 'conversion',
					timeout: 30,
				};
				const input = [{ json: { id: jobIds.a } }, { json: { id: jobIds.b } }];
				const continued = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters,
					input,
					onError: 'continueRegularOutput',
				});
				expect(continued.items.map((item) => [item.pairedItem, item.json.httpCode])).toEqual([
					[{ item: 0 }, '401'],
					[{ item: 1 }, '401'],
				]);
				const stopped = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters,
					input,
				});
				expect(stopped.error?.message).toMatch(/Authentication failed: Unauthenticated/);
			},
		);
	});

	test('a job still running at the timeout is an error naming its state', async () => {
		await withServer(
			(_request, response) =>
				sendJson(response, 200, { data: [listItem(jobIds.a, 'processing')], freeUsage }),
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: waitFor({ jobId: jobIds.a, timeout: 1 }),
					input: [{}],
					onError: 'continueRegularOutput',
				});
				expect(result.items[0].json.error).toBe(
					`Job ${jobIds.a} is still processing after 1 s [item 0]`,
				);
			},
		);
	});

	test('stopping the execution ends the wait at once', async () => {
		// Listings 20 s apart: the stop, however slow the machine, ends the wait long before the next one.
		const saved = { ...defaultPollSchedule };
		Object.assign(defaultPollSchedule, { firstDelayMs: 20_000, maxDelayMs: 20_000, jitter: 0 });
		try {
			await withServer(
				(_request, response) =>
					sendJson(response, 200, { data: [listItem(jobIds.a, 'queued')], freeUsage }),
				async (server) => {
					const controller = new AbortController();
					const running = runNode({
						credentials: { apiKey, baseUrl: server.baseUrl },
						parameters: waitFor({ jobId: jobIds.a, timeout: 600 }),
						input: [{}],
						signal: controller.signal,
					});
					await new Promise((resolve) => setTimeout(resolve, 500));
					const stoppedAt = Date.now();
					controller.abort();
					const result = await running;
					expect(Date.now() - stoppedAt).toBeLessThan(10_000);
					expect(result.items).toHaveLength(0);
					expect(server.requests.length).toBeLessThanOrEqual(2);
				},
			);
		} finally {
			Object.assign(defaultPollSchedule, saved);
		}
	});
});

describe('a failed listing does not end a wait that has time left', () => {
	useQuickRetries({ maxRetryAfterMs: 1000 });
	const completedListing = { data: [listItem(jobIds.a, 'completed')], freeUsage };
	/** Waits for job A through the service at `baseUrl` (warnings off: these tests count listings). */
	const waitForA = async (baseUrl: string, timeout = 60) =>
		await runNode({
			credentials: { apiKey, baseUrl },
			parameters: waitFor({ jobId: jobIds.a, timeout, showWarnings: false }),
			input: [{}],
			onError: 'continueRegularOutput',
		});

	test('two listings that each failed 5 times (HTTP 500) are followed by one that answers', async () => {
		let listings = 0;
		await withServer(
			(_request, response) => {
				listings++;
				if (listings <= 2 * defaultRetryPolicy.maxAttempts)
					return sendJson(response, 500, { message: 'Server Error' });
				sendJson(response, 200, completedListing);
			},
			async (server) => {
				const result = await waitForA(server.baseUrl);
				expect(result.items.map((item) => [item.json.id, item.json.status])).toEqual([
					[jobIds.a, 'completed'],
				]);
				expect(listings).toBe(2 * defaultRetryPolicy.maxAttempts + 1);
			},
		);
	});

	test('a 429 whose Retry-After is longer than a request waits: the next listing comes after it', async () => {
		const listedAt: number[] = [];
		await withServer(
			(_request, response) => {
				listedAt.push(Date.now());
				if (listedAt.length === 1)
					return sendJson(response, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '3' });
				sendJson(response, 200, completedListing);
			},
			async (server) => {
				const result = await waitForA(server.baseUrl);
				expect(result.items[0].json).toMatchObject({ id: jobIds.a, status: 'completed' });
				expect(listedAt).toHaveLength(2);
				expect(listedAt[1] - listedAt[0]).toBeGreaterThanOrEqual(3000);
			},
		);
	});

	describe('on the driven clock', () => {
		// A wait of a minute holds several rounds of tries however slow the machine: backoff and the poll
		// interval pass at once, and only the requests take their real time (at load average 8 beside 2
		// CPU-bound processes, the first round alone used 3 s of the wall clock; at 90, a 3 s wait on the driven
		// clock ended before its first round did).
		useTestClock();

		test('listings failing until the timeout end the job with the last failure, not as still running', async () => {
			await withServer(
				(_request, response) => sendJson(response, 503, { message: 'Down for maintenance.' }),
				async (server) => {
					const result = await waitForA(server.baseUrl, 60);
					expect(result.items[0].json.error).toMatch(/Down for maintenance/);
					expect(server.requests.length).toBeGreaterThan(defaultRetryPolicy.maxAttempts);
				},
			);
		});
	});
});
