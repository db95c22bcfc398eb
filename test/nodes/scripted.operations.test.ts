import type { INodeParameters } from 'n8n-workflow';

import { defaultPacing } from '../../nodes/Embroidery/transport/pacing';
import { runNode } from '../support/n8n';
import { detailedJob, freeUsage, jobIds, listItem } from './support/fakeJobs';
import { sendJson, startScriptedServer } from './support/scriptedServer';
import type { Handler } from './support/scriptedServer';

const apiKey = 'emb_test_key_0123456789';

async function withServer(
	handler: Handler,
	test: (server: Awaited<ReturnType<typeof startScriptedServer>>) => Promise<void>,
) {
	const server = await startScriptedServer(handler);
	try {
		await test(server);
	} finally {
		await server.close();
	}
}

const create = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'job',
	operation: 'create',
	workflow: 'conversion',
	binaryPropertyName: 'data',
	format: 'pes',
	...extra,
});

const file = (fileName: string, bytes: number, mimeType = 'application/octet-stream') => ({
	binary: { data: { data: Buffer.alloc(bytes, 1), fileName, mimeType } },
});

describe('validation happens before any request', () => {
	const cases: Array<[string, INodeParameters, Parameters<typeof runNode>[0]['input'], RegExp]> = [
		[
			'a missing binary field',
			create({ binaryPropertyName: 'artwork' }),
			[file('Star.dst', 10)],
			/Item 0 has no binary field "artwork"/,
		],
		[
			'a conversion source over 50 MB',
			create(),
			[file('ok.dst', 10), file('huge.dst', 50 * 1024 * 1024 + 1)],
			/"huge.dst" in binary field "data" of item 1 is 50 MB; conversion accepts at most 50 MB/,
		],
		[
			'artwork over 20 MB',
			create({ workflow: 'digitising', widthMm: 50, colourCount: 3 }),
			[file('big.png', 20 * 1024 * 1024 + 1, 'image/png')],
			/digitising accepts at most 20 MB/,
		],
		[
			'artwork of a type not accepted',
			create({ workflow: 'digitising', widthMm: 50, colourCount: 3 }),
			[file('logo.gif', 100, 'image/gif')],
			new RegExp(
				'"logo.gif" \\(image\\/gif\\) in binary field "data" of item 0 is ' +
					'not artwork digitising accepts: jpg, jpeg, png, svg, webp',
			),
		],
		[
			'a width out of range',
			create({ workflow: 'digitising', widthMm: 301, colourCount: 3 }),
			[file('logo.png', 100, 'image/png')],
			/'Width in Millimetres' must be between 10 and 300, got 301 \[item 0\]/,
		],
		[
			'a fractional colour count',
			create({ workflow: 'digitising', widthMm: 50, colourCount: 2.5 }),
			[file('logo.png', 100, 'image/png')],
			/'Colour Count' must be a whole number, got 2.5 \[item 0\]/,
		],
		[
			'a stitch limit out of range',
			create({ options: { maximumStitchCount: 250001 } }),
			[file('a.dst', 10)],
			/'Maximum Stitch Count' must be between 1 and 250000, got 250001 \[item 0\]/,
		],
		[
			'a timeout that is not positive',
			create({ waitForCompletion: true, timeout: -5 }),
			[file('a.dst', 10)],
			/'Timeout \(Seconds\)' must be a positive number, got "-5" \[item 0\]/,
		],
		[
			'an invalid job id',
			{ resource: 'job', operation: 'get', jobId: 'nope', workflow: 'conversion' },
			[{}],
			/'Job ID' must be a 26-character job id \(ULID\), got "nope" \[item 0\]/,
		],
		[
			'a wrong workflow',
			{ resource: 'job', operation: 'unlock', jobId: jobIds.a, workflow: 'convert' },
			[{}],
			/'Workflow' must be "conversion" or "digitising", got "convert"/,
		],
	];

	test.each(cases)('%s', async (_name, parameters, input, message) => {
		await withServer(
			(_request, response) => sendJson(response, 500, { message: 'should not be called' }),
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters,
					input,
				});
				expect(result.error?.message).toMatch(message);
				expect(server.requests).toHaveLength(0);
			},
		);
	});

	test('more than 10 sources in one item', async () => {
		const binary: Record<string, { data: Buffer; fileName: string; mimeType: string }> = {};
		for (let i = 0; i < 11; i++)
			binary[`f${i}`] = {
				data: Buffer.from('x'),
				fileName: `f${i}.dst`,
				mimeType: 'application/octet-stream',
			};
		await withServer(
			(_request, response) => sendJson(response, 500, {}),
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: create({ binaryPropertyName: Object.keys(binary).join(',') }),
					input: [{ binary }],
				});
				expect(result.error?.message).toMatch(
					/Item 0 has 11 source files; one request takes at most 10/,
				);
				expect(server.requests).toHaveLength(0);
			},
		);
	});

	test('with Continue On Fail, invalid items become error items and valid ones are still sent', async () => {
		let count = 0;
		await withServer(
			(_request, response) => {
				const id = [jobIds.a, jobIds.b][count++];
				sendJson(response, 202, {
					message: 'Accepted',
					job: { id, status: 'queued', workflow: 'conversion' },
					jobs: [{ id, status: 'queued', workflow: 'conversion' }],
					freeUsage,
				});
			},
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: create(),
					input: [file('a.dst', 10), { json: {} }, file('c.dst', 10)],
					onError: 'continueRegularOutput',
				});
				expect(result.items.map((item) => item.pairedItem)).toEqual([
					{ item: 0 },
					{ item: 1 },
					{ item: 2 },
				]);
				expect(result.items[1].json.error).toMatch(/Item 1 has no binary field "data"/);
				expect(result.items.map((item) => item.json.id ?? null)).toEqual([
					jobIds.a,
					null,
					jobIds.b,
				]);
				expect(server.requests).toHaveLength(2);
			},
		);
	});
});

describe('job creation requests', () => {
	test('combined items go out as one multipart request with files[] and the digitising fields', async () => {
		const ids = [jobIds.a, jobIds.b, jobIds.c];
		await withServer(
			(_request, response) => {
				const jobs = ids.map((id) => ({ id, status: 'queued', workflow: 'digitising' }));
				sendJson(response, 202, { message: 'Accepted', job: jobs[0], jobs, freeUsage });
			},
			async (server) => {
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: create({
						workflow: 'digitising',
						widthMm: 80,
						colourCount: 4,
						threadPaletteKey: 'isacord',
						options: { batching: 'combine', maximumStitchCount: 9000 },
					}),
					input: ['a.png', 'b.svg', 'c.webp'].map((name) => file(name, 50, 'image/png')),
				});
				expect(server.requests).toHaveLength(1);
				const request = server.requests[0];
				expect(request.method).toBe('POST');
				expect(request.url).toBe('/api/v1/jobs');
				expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
				const body = request.body.toString('latin1');
				expect(body.match(/name="files\[\]"; filename="/g)).toHaveLength(3);
				for (const [field, value] of [
					['workflow', 'digitising'],
					['format', 'pes'],
					['width_mm', '80'],
					['colour_count', '4'],
					['thread_palette_key', 'isacord'],
					['maximum_stitch_count', '9000'],
				]) {
					expect(body).toContain(`name="${field}"\r\n\r\n${value}\r\n`);
				}
				expect(result.items.map((item) => [item.json.id, item.pairedItem])).toEqual(
					ids.map((id, item) => [id, { item }]),
				);
			},
		);
	});

	test('one request per item sends a single source as `file`', async () => {
		await withServer(
			(_request, response) => {
				const job = { id: jobIds.a, status: 'queued', workflow: 'conversion' };
				sendJson(response, 202, { message: 'Accepted', job, jobs: [job], freeUsage });
			},
			async (server) => {
				await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: create(),
					input: [file('a.dst', 10), file('b.dst', 10)],
				});
				expect(server.requests).toHaveLength(2);
				for (const request of server.requests)
					expect(request.body.toString('latin1')).toContain('name="file"; filename="');
			},
		);
	});
});

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
						parameters: {
							resource: 'job',
							operation: 'waitForCompletion',
							jobId: '={{ $json.id }}',
							workflow: 'conversion',
							timeout: 60,
							showWarnings: false,
						},
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
					parameters: {
						resource: 'job',
						operation: 'waitForCompletion',
						jobId: '={{ $json.id }}',
						workflow: 'conversion',
						timeout: 60,
						includeFullJob: true,
					},
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
					parameters: {
						resource: 'job',
						operation: 'waitForCompletion',
						jobId: '={{ $json.id }}',
						workflow: 'conversion',
						timeout: 30,
					},
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
					parameters: {
						resource: 'job',
						operation: 'waitForCompletion',
						jobId: jobIds.a,
						workflow: 'conversion',
						timeout: 1,
					},
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
					parameters: {
						resource: 'job',
						operation: 'waitForCompletion',
						jobId: jobIds.a,
						workflow: 'conversion',
						timeout: 600,
					},
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
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: {
						resource: 'job',
						operation: 'download',
						jobId: jobIds.a,
						workflow: 'conversion',
						files: ['preview'],
					},
					input: [{}],
				});
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
				const result = await runNode({
					credentials: { apiKey, baseUrl: server.baseUrl },
					parameters: {
						resource: 'job',
						operation: 'download',
						jobId: jobIds.a,
						workflow: 'conversion',
						files: ['preview'],
					},
					input: [{}],
				});
				expect(result.error?.message).toMatch(/The signed URL has expired/);
				expect(result.error?.description).toMatch(/already fetched the job again for a fresh link/);
				expect(result.error?.description).not.toMatch(/abilit/);
				expect(server.requests).toHaveLength(4);
			},
		);
	});
});

describe('pacing within an execution', () => {
	test('requests of one execution and credential stay within the window', async () => {
		const saved = { ...defaultPacing };
		Object.assign(defaultPacing, { limit: 3, windowMs: 1000 });
		const times: number[] = [];
		try {
			await withServer(
				(_request, response) => {
					times.push(Date.now());
					sendJson(response, 200, { freeUsage });
				},
				async (server) => {
					const started = Date.now();
					const result = await runNode({
						credentials: { apiKey, baseUrl: server.baseUrl },
						parameters: { resource: 'account', operation: 'getUsage' },
						input: Array.from({ length: 7 }, () => ({})),
					});
					expect(result.items).toHaveLength(7);
					// The 7th request may start only 2 windows after the 1st; unpaced, all take a few ms.
					expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
				},
			);
		} finally {
			Object.assign(defaultPacing, saved);
		}
		// Arrival times trail the pacer's start times by each request's latency, hence the slack.
		expect(times[6] - times[0]).toBeGreaterThanOrEqual(1000);
	});
});
