/**
 * Version 2's Job field and optional Workflow, run through n8n-core's real execution against a
 * scripted service that records every request: how many requests finding a workflow costs.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../support/nodeRun';
import type { InputItem } from '../../../support/nodeRun';
import { detailedJob, freeUsage, jobIds, listItem } from '../../support/fakeJobs';
import { sendJson, startScriptedServer } from '../../support/scriptedServer';
import type { Handler } from '../../support/scriptedServer';

const apiKey = 'emb_test_key_0123456789';
type Server = Awaited<ReturnType<typeof startScriptedServer>>;

async function withServer(handler: Handler, test: (server: Server) => Promise<void>) {
	const server = await startScriptedServer(handler);
	try {
		await test(server);
	} finally {
		await server.close();
	}
}

/** A service whose listing holds `listed`, and whose job routes know `known` (id -> workflow). */
function service(
	listed: Array<ReturnType<typeof listItem>>,
	known: Record<string, string>,
): Handler {
	return (request, response) => {
		if (request.method === 'GET' && request.url === '/api/v1/jobs')
			return sendJson(response, 200, { data: listed, freeUsage });
		const match =
			/^\/api\/v1\/jobs\/(conversion|digitising)\/([0-9A-Z]{26})(\/unlock|\/retry)?$/.exec(
				request.url,
			);
		if (!match || known[match[2]] !== match[1])
			return sendJson(response, 404, { message: 'Job not found.' });
		if (match[3] === '/unlock') {
			return sendJson(response, 200, {
				message: 'Unlocked.',
				...detailedJob(match[2], 'completed', { downloadsUnlocked: true }),
			});
		}
		if (match[3] === '/retry')
			return sendJson(response, 202, {
				message: 'Queued.',
				job: { id: match[2], status: 'queued', workflow: match[1] },
			});
		sendJson(response, 200, detailedJob(match[2], 'completed', { warnings: [] }));
	};
}

const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

async function runV2(server: Server, parameters: INodeParameters, input: InputItem[] = [{}]) {
	return await runNode({
		credentials: { apiKey, baseUrl: server.baseUrl },
		parameters: { resource: 'job', ...parameters },
		input,
		typeVersion: 2,
	});
}

const sent = (server: Server) =>
	server.requests.map((request) => `${request.method} ${request.url}`);

describe("finding a job's workflow (node version 2)", () => {
	test("a job in the listing: one listing, then the job's own route", async () => {
		await withServer(
			service([listItem(jobIds.a, 'completed', 'digitising')], { [jobIds.a]: 'digitising' }),
			async (server) => {
				const result = await runV2(server, {
					operation: 'get',
					jobId: byId(jobIds.a),
					workflow: 'detect',
				});
				expect(result.error).toBeUndefined();
				expect(result.items[0].json).toMatchObject({
					id: jobIds.a,
					workflow: 'digitising',
					status: 'completed',
				});
				expect(sent(server)).toEqual([
					'GET /api/v1/jobs',
					`GET /api/v1/jobs/digitising/${jobIds.a}`,
				]);
			},
		);
	});

	test('an empty Workflow is Detect too', async () => {
		await withServer(
			service([listItem(jobIds.a, 'completed', 'digitising')], { [jobIds.a]: 'digitising' }),
			async (server) => {
				const result = await runV2(server, {
					operation: 'get',
					jobId: byId(jobIds.a),
					workflow: '',
				});
				expect(result.items[0].json.workflow).toBe('digitising');
				expect(sent(server)).toHaveLength(2);
			},
		);
	});

	test('the incoming item is the job: its workflow is used, no extra request', async () => {
		await withServer(service([], { [jobIds.a]: 'digitising' }), async (server) => {
			const result = await runV2(
				server,
				{ operation: 'get', jobId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
				[{ json: { id: jobIds.a, workflow: 'digitising' } }],
			);
			expect(result.items[0].json).toMatchObject({ id: jobIds.a, workflow: 'digitising' });
			expect(sent(server)).toEqual([`GET /api/v1/jobs/digitising/${jobIds.a}`]);
		});
	});

	test('a job picked from the list carries its workflow in its link', async () => {
		await withServer(service([], { [jobIds.a]: 'digitising' }), async (server) => {
			const jobId = {
				__rl: true,
				mode: 'list',
				value: jobIds.a,
				cachedResultName: 'logo.svg → DST · digitising · completed · 3 min ago',
				cachedResultUrl: `${server.baseUrl}/jobs/digitising/${jobIds.a}`,
			};
			const result = await runV2(server, { operation: 'get', jobId, workflow: 'detect' });
			expect(result.items[0].json.workflow).toBe('digitising');
			expect(sent(server)).toEqual([`GET /api/v1/jobs/digitising/${jobIds.a}`]);
		});
	});

	test('By URL: the job link names the workflow, which wins over the Workflow field', async () => {
		await withServer(service([], { [jobIds.a]: 'digitising' }), async (server) => {
			const jobId = {
				__rl: true,
				mode: 'url',
				value: `${server.baseUrl}/jobs/digitising/${jobIds.a}`,
			};
			const result = await runV2(server, { operation: 'get', jobId, workflow: 'conversion' });
			expect(result.items[0].json.workflow).toBe('digitising');
			expect(sent(server)).toEqual([`GET /api/v1/jobs/digitising/${jobIds.a}`]);
		});
	});

	test('a job older than the listing: the conversion route answers and its detail is reused', async () => {
		await withServer(
			service([listItem(jobIds.c, 'completed')], { [jobIds.b]: 'conversion' }),
			async (server) => {
				const result = await runV2(server, { operation: 'get', jobId: byId(jobIds.b) });
				expect(result.items[0].json).toMatchObject({ id: jobIds.b, workflow: 'conversion' });
				expect(sent(server)).toEqual([
					'GET /api/v1/jobs',
					`GET /api/v1/jobs/conversion/${jobIds.b}`,
				]);
			},
		);
	});

	test('a job older than the listing: a 404 on the conversion route leaves the digitising route', async () => {
		await withServer(service([], { [jobIds.b]: 'digitising' }), async (server) => {
			const result = await runV2(server, { operation: 'get', jobId: byId(jobIds.b) });
			expect(result.items[0].json).toMatchObject({ id: jobIds.b, workflow: 'digitising' });
			expect(sent(server)).toEqual([
				'GET /api/v1/jobs',
				`GET /api/v1/jobs/conversion/${jobIds.b}`,
				`GET /api/v1/jobs/digitising/${jobIds.b}`,
			]);
		});
	});

	test('a job no route knows: one clear error after three requests', async () => {
		await withServer(service([], {}), async (server) => {
			const result = await runV2(server, { operation: 'get', jobId: byId(jobIds.b) });
			expect(result.error?.message).toBe(`Job ${jobIds.b} was not found [item 0]`);
			expect(String(result.error?.description)).toMatch(
				/neither the conversion nor the digitising route knows it/,
			);
			expect(sent(server)).toHaveLength(3);
		});
	});

	test('Unlock finds the workflow by reading and sends the unlock once', async () => {
		await withServer(service([], { [jobIds.b]: 'digitising' }), async (server) => {
			const result = await runV2(server, { operation: 'unlock', jobId: byId(jobIds.b) });
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({
				id: jobIds.b,
				workflow: 'digitising',
				downloadsUnlocked: true,
			});
			expect(sent(server)).toEqual([
				'GET /api/v1/jobs',
				`GET /api/v1/jobs/conversion/${jobIds.b}`,
				// The job is not in the listing and its detection read no state: it is inspected before the unlock.
				`GET /api/v1/jobs/digitising/${jobIds.b}`,
				`POST /api/v1/jobs/digitising/${jobIds.b}/unlock`,
			]);
		});
	});

	test('Retry of a listed job: one listing, one retry', async () => {
		await withServer(
			service([listItem(jobIds.a, 'failed', 'digitising')], { [jobIds.a]: 'digitising' }),
			async (server) => {
				const result = await runV2(server, { operation: 'retry', jobId: byId(jobIds.a) });
				expect(result.items[0].json).toMatchObject({
					id: jobIds.a,
					workflow: 'digitising',
					status: 'queued',
				});
				expect(sent(server)).toEqual([
					'GET /api/v1/jobs',
					`POST /api/v1/jobs/digitising/${jobIds.a}/retry`,
				]);
			},
		);
	});

	test('all items of a run share one listing', async () => {
		const listed = [
			listItem(jobIds.a, 'completed', 'digitising'),
			listItem(jobIds.b, 'completed'),
			listItem(jobIds.c, 'completed'),
		];
		const known = { [jobIds.a]: 'digitising', [jobIds.b]: 'conversion', [jobIds.c]: 'conversion' };
		await withServer(service(listed, known), async (server) => {
			const result = await runV2(
				server,
				{ operation: 'get', jobId: { __rl: true, mode: 'id', value: '={{ $json.jobId }}' } },
				[jobIds.a, jobIds.b, jobIds.c].map((jobId) => ({ json: { jobId } })),
			);
			expect(result.items.map((item) => item.json.workflow)).toEqual([
				'digitising',
				'conversion',
				'conversion',
			]);
			expect(sent(server).filter((line) => line === 'GET /api/v1/jobs')).toHaveLength(1);
			expect(sent(server)).toHaveLength(4);
		});
	});

	test("Wait for Completion takes several IDs and finds each one's workflow", async () => {
		const listed = [listItem(jobIds.a, 'completed', 'digitising'), listItem(jobIds.b, 'completed')];
		await withServer(
			service(listed, { [jobIds.a]: 'digitising', [jobIds.b]: 'conversion' }),
			async (server) => {
				// Show Warnings off: its one detail request per listed job is counted by bench/node-requests.ts.
				const result = await runV2(server, {
					operation: 'waitForCompletion',
					jobId: byId(`${jobIds.a}, ${jobIds.b}`),
					timeout: 30,
					showWarnings: false,
				});
				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => [item.json.id, item.json.workflow])).toEqual([
					[jobIds.a, 'digitising'],
					[jobIds.b, 'conversion'],
				]);
				// One listing to find the workflows, one for the first round of waiting.
				expect(sent(server)).toEqual(['GET /api/v1/jobs', 'GET /api/v1/jobs']);
			},
		);
	});

	test('a saved string Job ID (the older form) still works', async () => {
		await withServer(
			service([listItem(jobIds.a, 'completed')], { [jobIds.a]: 'conversion' }),
			async (server) => {
				const result = await runV2(server, {
					operation: 'get',
					jobId: jobIds.a,
					workflow: 'conversion',
				});
				expect(result.items[0].json).toMatchObject({ id: jobIds.a, workflow: 'conversion' });
				expect(sent(server)).toEqual([`GET /api/v1/jobs/conversion/${jobIds.a}`]);
			},
		);
	});

	test("n8n itself refuses a typed ID or link that is not one, as the field's validation says", async () => {
		await withServer(service([], {}), async (server) => {
			await expect(runV2(server, { operation: 'get', jobId: byId('not-a-job') })).rejects.toThrow(
				/A job ID has 26 letters and digits, like 01J9Z3Q4W8Y6V5T2R1P0N9M8K7/,
			);
			await expect(
				runV2(server, {
					operation: 'get',
					jobId: { __rl: true, mode: 'url', value: 'https://example.com/jobs/1' },
				}),
			).rejects.toThrow(
				/Not a job link: it ends in \/jobs\/conversion\/\{ID\} or \/jobs\/digitising\/\{ID\}/,
			);
			expect(server.requests).toHaveLength(0);
		});
	});

	test('a mapped value that is no job is refused before any request, naming the field and what to do', async () => {
		await withServer(service([], {}), async (server) => {
			const badId = await runV2(server, { operation: 'get', jobId: byId('={{ $json.ref }}') }, [
				{ json: { ref: 'not-a-job' } },
			]);
			expect(badId.error?.message).toBe(
				'\'Job\' must be a 26-character job id (ULID), got "not-a-job" [item 0]',
			);
			const badLink = await runV2(
				server,
				{ operation: 'get', jobId: { __rl: true, mode: 'url', value: '={{ $json.ref }}' } },
				[{ json: { ref: 'https://example.com/jobs/1' } }],
			);
			expect(badLink.error?.message).toBe(
				'\'Job\' is not a job link: "https://example.com/jobs/1" [item 0]',
			);
			const badWorkflow = await runV2(server, {
				operation: 'get',
				jobId: byId(jobIds.a),
				workflow: 'embroidery',
			});
			expect(badWorkflow.error?.message).toMatch(
				/^'Workflow' must be "conversion", "digitising" or empty, got "embroidery"/,
			);
			expect(server.requests).toHaveLength(0);
		});
	});
});
