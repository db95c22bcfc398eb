/**
 * The action node against a scripted service: checks before any request, creation requests, pacing, and
 * listings with entries off the spec.
 */
import type { ServerResponse } from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import { defaultPacing } from '../../../nodes/Embroidery/transport/rateLimit';
import { listSearch } from '../../support/editorMethods';
import { runNode } from '../../support/nodeRun';
import { ActiveTriggerHarness, testTriggerManually } from '../../support/triggerRun';
import { detailedJob, freeUsage, jobIds, listItem } from '../support/fakeJobs';
import { apiKey, withServer, create, file, waitFor } from '../support/scriptedRuns';
import { sendJson } from '../support/scriptedServer';
import type { RecordedRequest } from '../support/scriptedServer';

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

describe('a listing entry off the spec costs only that entry', () => {
	const listedFile = (host: string, upload: string, extra: Record<string, unknown> = {}) => ({
		id: upload,
		name: `${upload}.png`,
		mimeType: 'image/png',
		downloadUrl: null,
		previewUrl: `http://${host}/api/v1/uploads/${upload}/preview?expires=1&signature=s`,
		...extra,
	});
	/** Five jobs in `status`, each with one field the spec types otherwise, and one entry with no usable status. */
	const offSpecListing = (host: string, status = 'completed') => ({
		data: [
			{ ...listItem(jobIds.a, status), source: listedFile(host, 'upa', { size: '12' }) },
			{
				...listItem(jobIds.b, status),
				preview: listedFile(host, 'upb', { id: 7, expiresAt: 1 }),
			},
			{
				...listItem(jobIds.c, status),
				output: listedFile(host, 'upc', { downloadUrl: { href: 'x' } }),
			},
			{ ...listItem(jobIds.d, status), source: { id: 'upd', name: 'd.dst' } },
			{ ...listItem(jobIds.e, 'done') },
		],
		freeUsage,
	});
	const serveOffSpec = (request: RecordedRequest, response: ServerResponse) => {
		if (request.url === '/api/v1/jobs')
			return sendJson(response, 200, offSpecListing(String(request.headers.host)));
		sendJson(response, 200, detailedJob(request.url.split('/').pop()!, 'completed'));
	};

	test('Get Many lists every usable job, naming the fields it left out', async () => {
		await withServer(serveOffSpec, async (server) => {
			const result = await runNode({
				credentials: { apiKey, baseUrl: server.baseUrl },
				parameters: { resource: 'job', operation: 'getMany', returnAll: true, simplify: false },
				input: [{}],
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id)).toEqual([
				jobIds.a,
				jobIds.b,
				jobIds.c,
				jobIds.d,
			]);
			const [a, b, c, d] = result.items.map((item) => item.json);
			expect(a.fieldErrors).toEqual(['source.size: Expected number, received string']);
			expect(b.fieldErrors).toEqual([
				'preview.id: Expected string, received number',
				'preview.expiresAt: Expected string, received number',
			]);
			expect(c.fileErrors).toEqual([
				expect.objectContaining({ kind: 'output', fileName: 'upc.png' }),
			]);
			expect(d.fieldErrors).toBeUndefined();
			expect(result.run.data.resultData.runData.Embroidery[0].hints).toEqual([
				expect.objectContaining({
					type: 'warning',
					message:
						`The service listed a job the node could not read, left out: entry 5 (job ${jobIds.e}): ` +
						"field \"status\": Invalid enum value. Expected 'queued' | 'processing' | " +
						"'completed' | 'failed', received 'done'. Use Job > Get with its id, or check the service.",
				}),
			]);
		});
	});

	test('Wait for Completion ends each job as completed, the one with no usable entry from its own GET', async () => {
		await withServer(serveOffSpec, async (server) => {
			const result = await runNode({
				credentials: { apiKey, baseUrl: server.baseUrl },
				parameters: waitFor({ timeout: 30, showWarnings: false }),
				input: [jobIds.a, jobIds.b, jobIds.c, jobIds.d, jobIds.e].map((id) => ({ json: { id } })),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => [item.json.id, item.json.status])).toEqual(
				[jobIds.a, jobIds.b, jobIds.c, jobIds.d, jobIds.e].map((id) => [id, 'completed']),
			);
			expect(server.requests.map((request) => request.url)).toEqual([
				'/api/v1/jobs',
				`/api/v1/jobs/conversion/${jobIds.e}`,
			]);
		});
	});

	test("the Job picker lists every usable job and the trigger's Test step still answers", async () => {
		await withServer(serveOffSpec, async (server) => {
			const credentials = { apiKey, baseUrl: server.baseUrl };
			const picked = await listSearch('searchJobs', credentials);
			expect(picked.results.map((result) => result.value)).toEqual([
				jobIds.a,
				jobIds.b,
				jobIds.c,
				jobIds.d,
			]);
			const sample = await testTriggerManually({
				parameters: { events: ['completed'], workflow: 'both' },
				credentials,
			});
			expect(sample?.[0].map((item) => item.json.id)).toEqual([jobIds.a]);
		});
	});
	test('an active trigger emits the endings of every usable job', async () => {
		let listings = 0;
		await withServer(
			(request, response) => {
				if (request.url !== '/api/v1/jobs') return serveOffSpec(request, response);
				listings++;
				const status = listings === 1 ? 'processing' : 'completed';
				sendJson(response, 200, offSpecListing(String(request.headers.host), status));
			},
			async (server) => {
				const trigger = new ActiveTriggerHarness({
					parameters: { events: ['completed'], workflow: 'both' },
					credentials: { apiKey, baseUrl: server.baseUrl },
				});
				await trigger.activate();
				const emitted = await trigger.poll();
				expect(trigger.failures).toEqual([]);
				expect(emitted?.map((item) => item.json.id).sort()).toEqual(
					[jobIds.a, jobIds.b, jobIds.c, jobIds.d].sort(),
				);
			},
		);
	});
});
