/** The action node against a scripted service: waiting for many jobs, and downloads. */
import type { ServerResponse } from 'node:http';

import { defaultRetryPolicy } from '../../nodes/Embroidery/transport';
import { binaryBuffer, runNode } from '../support/n8n';
import { detailedJob, freeUsage, jobIds, listItem } from './support/fakeJobs';
import {
	apiKey,
	withServer,
	create,
	download,
	file,
	useQuickRetries,
	waitFor,
} from './support/scriptedRuns';
import { sendJson } from './support/scriptedServer';
import type { Handler } from './support/scriptedServer';

/** Job > Download of job A's preview through the scripted service at `baseUrl`. */
async function downloadPreview(baseUrl: string, onError?: 'continueRegularOutput') {
	return await runNode({
		credentials: { apiKey, baseUrl },
		parameters: download(['preview']),
		input: [{}],
		onError,
	});
}

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
		await withServer(
			(_request, response) =>
				sendJson(response, 200, { data: [listItem(jobIds.a, 'queued')], freeUsage }),
			async (server) => {
				const controller = new AbortController();
				const started = Date.now();
				const running = runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: waitFor({ jobId: jobIds.a, timeout: 600 }),
					input: [{}],
					signal: controller.signal,
				});
				await new Promise((resolve) => setTimeout(resolve, 500));
				controller.abort();
				const result = await running;
				expect(Date.now() - started).toBeLessThan(3000);
				expect(result.items).toHaveLength(0);
				expect(server.requests.length).toBeLessThanOrEqual(2);
			},
		);
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

	test('listings failing until the timeout end the job with the last failure, not as still running', async () => {
		await withServer(
			(_request, response) => sendJson(response, 503, { message: 'Down for maintenance.' }),
			async (server) => {
				const result = await waitForA(server.baseUrl, 3);
				expect(result.items[0].json.error).toMatch(/Down for maintenance/);
				expect(server.requests.length).toBeGreaterThan(defaultRetryPolicy.maxAttempts);
			},
		);
	});
});

describe('downloads', () => {
	test(
		"Create -> Wait -> Download takes files from the listing's signed URLs; an expired one " +
			'costs one job GET',
		async () => {
			const privateFile = (host: string, upload: string, signature: string) => ({
				id: upload,
				name: `${upload}.png`,
				mimeType: 'image/png',
				downloadUrl: null,
				previewUrl: `http://${host}/api/v1/uploads/${upload}/preview?expires=1&signature=${signature}`,
			});
			await withServer(
				(request, response) => {
					const host = String(request.headers.host);
					if (request.method === 'POST') {
						const jobs = [jobIds.a, jobIds.b].map((id) => ({
							id,
							status: 'queued',
							workflow: 'conversion',
						}));
						return sendJson(response, 202, { message: 'Accepted', job: jobs[0], jobs, freeUsage });
					}
					if (request.url === '/api/v1/jobs') {
						return sendJson(response, 200, {
							data: [
								{ ...listItem(jobIds.a, 'completed'), preview: privateFile(host, 'upa', 'fresh') },
								{ ...listItem(jobIds.b, 'completed'), preview: privateFile(host, 'upb', 'stale') },
							],
							freeUsage,
						});
					}
					if (request.url.startsWith('/api/v1/jobs/')) {
						return sendJson(
							response,
							200,
							detailedJob(jobIds.b, 'completed', {
								artifacts: [{ kind: 'preview', ...privateFile(host, 'upb', 'fresh') }],
							}),
						);
					}
					if (request.url.includes('signature=stale'))
						return sendJson(response, 403, { message: 'The signed URL has expired.' });
					response.writeHead(200, { 'content-type': 'image/png' });
					response.end(Buffer.from(`PNG ${request.url.split('/')[3]}`));
				},
				async (server) => {
					const result = await runNode({
						credentials: { apiKey, baseUrl: server.baseUrl },
						// Warnings off: this test counts the requests of the listing path alone (warnings cost one job GET each).
						parameters: create({
							waitForCompletion: true,
							timeout: 60,
							downloadResults: ['preview'],
							showWarnings: false,
							options: { batching: 'combine' },
						}),
						input: [file('a.dst', 10), file('b.dst', 10)],
					});
					expect(result.error).toBeUndefined();
					expect(
						server.requests.map(
							(request) => `${request.method} ${request.url.replace(/\?.*/, '')}`,
						),
					).toEqual([
						'POST /api/v1/jobs',
						'GET /api/v1/jobs',
						'GET /api/v1/uploads/upa/preview',
						'GET /api/v1/uploads/upb/preview',
						`GET /api/v1/jobs/conversion/${jobIds.b}`,
						'GET /api/v1/uploads/upb/preview',
					]);
					expect(
						result.items.map((item) => [
							item.json.id,
							item.json.workflow,
							item.json.status,
							item.json.sourceFile,
						]),
					).toEqual([
						[jobIds.a, 'conversion', 'completed', 'a.dst'],
						[jobIds.b, 'conversion', 'completed', 'b.dst'],
					]);
					expect(result.items[1].binary?.preview).toMatchObject({ mimeType: 'image/png' });
					expect(result.items[1].json.files).toEqual([
						{ kind: 'preview', field: 'preview', fileName: 'upb.png', mimeType: 'image/png' },
					]);
				},
			);
		},
	);

	test('a refused signed URL leads to exactly one refetch of the job, then the fresh URL', async () => {
		let jobFetches = 0;
		await withServer(
			(request, response) => {
				if (request.url.startsWith('/api/v1/jobs/')) {
					jobFetches++;
					const url =
						`http://${request.headers.host}/api/v1/uploads/up1/preview?expires=${jobFetches}&sig` +
						`nature=s${jobFetches}`;
					return sendJson(
						response,
						200,
						detailedJob(jobIds.a, 'completed', {
							artifacts: [{ kind: 'preview', name: 'p.png', previewUrl: url, downloadUrl: null }],
						}),
					);
				}
				if (request.url.includes('signature=s1'))
					return sendJson(response, 403, { message: 'The signed URL has expired.' });
				response.writeHead(200, {
					'content-type': 'image/png',
					'content-disposition': 'inline; filename="preview.png"',
				});
				response.end(Buffer.from('PNGDATA'));
			},
			async (server) => {
				const result = await downloadPreview(server.baseUrl);
				expect(result.error).toBeUndefined();
				expect(jobFetches).toBe(2);
				expect(result.items[0].binary?.preview).toMatchObject({
					fileName: 'preview.png',
					mimeType: 'image/png',
				});
				expect(server.requests.map((request) => request.url.replace(/\?.*/, ''))).toEqual([
					`/api/v1/jobs/conversion/${jobIds.a}`,
					'/api/v1/uploads/up1/preview',
					`/api/v1/jobs/conversion/${jobIds.a}`,
					'/api/v1/uploads/up1/preview',
				]);
			},
		);
	});

	test('a URL refused again after the refetch is an error, not a loop', async () => {
		await withServer(
			(request, response) => {
				if (request.url.startsWith('/api/v1/jobs/')) {
					const url = `http://${request.headers.host}/api/v1/uploads/up1/preview?expires=1&signature=s`;
					return sendJson(
						response,
						200,
						detailedJob(jobIds.a, 'completed', { artifacts: [{ previewUrl: url }] }),
					);
				}
				sendJson(response, 403, { message: 'The signed URL has expired.' });
			},
			async (server) => {
				const result = await downloadPreview(server.baseUrl);
				expect(result.error?.message).toMatch(/The signed URL has expired/);
				expect(result.error?.description).toMatch(/already fetched the job again for a fresh link/);
				expect(result.error?.description).not.toMatch(/abilit/);
				expect(server.requests).toHaveLength(4);
			},
		);
	});
});

describe('a connection lost in the middle of a download', () => {
	/** A job whose preview link points at `/api/v1/uploads/up1/preview` on the same server. */
	const jobWithPreview = (host: string) =>
		detailedJob(jobIds.a, 'completed', {
			artifacts: [
				{
					kind: 'preview',
					name: 'p.png',
					downloadUrl: null,
					previewUrl: `http://${host}/api/v1/uploads/up1/preview?expires=1&signature=s1`,
				},
			],
		});
	const whole = Buffer.from(Array.from({ length: 4000 }, (_, index) => index % 251));
	useQuickRetries();

	/** Announces the whole file, sends its first 1000 bytes, then resets the connection. */
	const resetMidway = (response: ServerResponse) => {
		response.writeHead(200, {
			'content-type': 'image/png',
			'content-length': String(whole.length),
		});
		response.write(whole.subarray(0, 1000), () =>
			setTimeout(() => response.socket?.resetAndDestroy(), 50),
		);
	};

	/** Job A's detail with its preview link; the file as `answerFile` says, told which request for it this is. */
	const serving = (answerFile: (response: ServerResponse, fileRequest: number) => void) => {
		let fileRequests = 0;
		const handler: Handler = (request, response) => {
			if (request.url.startsWith('/api/v1/jobs/'))
				return sendJson(response, 200, jobWithPreview(String(request.headers.host)));
			answerFile(response, ++fileRequests);
		};
		return { handler, fileRequests: () => fileRequests };
	};

	test('a download reset midway starts again and delivers the whole file, never a part', async () => {
		const service = serving((response, fileRequest) => {
			if (fileRequest === 1) return resetMidway(response);
			response.writeHead(200, { 'content-type': 'image/png' });
			response.end(whole);
		});
		await withServer(service.handler, async (server) => {
			const result = await downloadPreview(server.baseUrl);
			expect(result.error).toBeUndefined();
			expect(service.fileRequests()).toBe(2);
			expect((await binaryBuffer(result.items[0].binary!.preview)).equals(whole)).toBe(true);
		});
	});

	test('a download reset on every try fails after the GET tries, with no file delivered', async () => {
		const service = serving((response) => resetMidway(response));
		await withServer(service.handler, async (server) => {
			const result = await downloadPreview(server.baseUrl, 'continueRegularOutput');
			expect(service.fileRequests()).toBe(defaultRetryPolicy.maxAttempts);
			expect(result.items).toHaveLength(1);
			expect(result.items[0].binary).toBeUndefined();
			expect(result.items[0].json.error).toMatch(/lost|reset|aborted/);
		});
	});
});
