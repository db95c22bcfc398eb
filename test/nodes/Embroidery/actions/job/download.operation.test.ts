/** The action node against a scripted service: Job > Download, and downloads that lose their connection. */
import type { ServerResponse } from 'node:http';

import { defaultRetryPolicy } from '../../../../../nodes/Embroidery/transport';
import { binaryBuffer } from '../../../../support/binaryData';
import { runNode } from '../../../../support/nodeRun';
import { detailedJob, freeUsage, jobIds, listItem } from '../../../support/fakeJobs';
import {
	apiKey,
	withServer,
	create,
	download,
	file,
	useQuickRetries,
} from '../../../support/scriptedRuns';
import { sendJson } from '../../../support/scriptedServer';
import type { Handler } from '../../../support/scriptedServer';

/** Job > Download of job A's preview through the scripted service at `baseUrl`. */
async function downloadPreview(baseUrl: string, onError?: 'continueRegularOutput') {
	return await runNode({
		credentials: { apiKey, baseUrl },
		parameters: download(['preview']),
		input: [{}],
		onError,
	});
}

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
