/**
 * The transport's time limits in real time (a real hang, a real stall, a real trickle): bounded tries of a request
 * that is never answered, an idle limit between a download's chunks, and stopping an execution mid-request.
 */
import type { ServerResponse } from 'node:http';

import type { INodeParameters } from 'n8n-workflow';

import { defaultRetryPolicy, timeLimits } from '../../../../nodes/Embroidery/transport';
import { downloadFiles } from '../../../support/jobParameters';
import { binaryBuffer } from '../../../support/binaryData';
import { runNode } from '../../../support/nodeRun';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import { eventually } from '../../../support/realTime';
import { useRealTime } from '../../../support/testClock';
import { detailedJob, freeUsage, jobIds, listItem } from '../../support/fakeJobs';
import { itemsOf } from '../../support/nodeItems';
import { apiKey, create, download, file, withServer } from '../../support/scriptedRuns';
import { sendJson } from '../../support/scriptedServer';
import { useVariantSuite } from '../../support/variantSuite';

jest.setTimeout(120_000);

const { clock, variant, credentials, completedJob } = useVariantSuite();

/**
 * What a loaded machine (load average 8 on 2 cores) may add to a real-time step: the service noticing a closed
 * connection, a process being scheduled again. Limits these tests set are far enough apart that the
 * difference between "at the limit" and "never" is still many times this.
 */
const loadMarginMs = 5_000;

/**
 * Runs the node, stops the execution while its request to `route` is `open` (hanging or stalled), and checks
 * that the run returns at once with no item and that the service sees the client close that request.
 */
async function stopWhileOpen(
	creds: ApiCredentials,
	parameters: INodeParameters,
	route: string,
	open: string,
): Promise<void> {
	const controller = new AbortController();
	const running = runNode({
		credentials: creds,
		parameters,
		input: [{}],
		signal: controller.signal,
	});
	// The request arrives when the node gets to send it: seconds on a loaded machine.
	expect(await eventually(() => variant.of(route)[0]?.handling === open, 60_000)).toBe(true);
	const stoppedAt = Date.now();
	controller.abort();
	const result = await running;
	// At once: the request would never end by itself.
	expect(Date.now() - stoppedAt).toBeLessThan(loadMarginMs);
	expect(result.items).toHaveLength(0);
	await eventually(() => variant.of(route)[0].handling !== open, 3 * loadMarginMs);
	expect(variant.of(route)[0].handling).toBe(`${open}, then closed by the client`);
}

describe('nothing hangs (real time)', () => {
	useRealTime(clock);

	it('a service that never answers fails each try after the JSON time limit, a bounded number of times', async () => {
		const creds = await credentials();
		// Long enough for each try to reach the service on a loaded machine before the node gives it up (with
		// 0.3 s and 1 s, the last try did not reach it at load average 25).
		timeLimits.jsonMs = 3000;
		variant.on((request) => (request.route === 'GET /usage' ? { hang: true } : undefined));
		const started = Date.now();
		const result = await runNode({
			credentials: creds,
			parameters: { resource: 'account', operation: 'getUsage' },
			input: [{}],
		});
		const ms = Date.now() - started;
		expect(result.error?.message).toBe(
			'The service could not be reached: no complete answer within 3 s [item 0]',
		);
		// The service sees the last try arrive and closed a moment after the node has given up.
		const tries = () => variant.of('GET /usage');
		await eventually(
			() =>
				tries().length >= defaultRetryPolicy.maxAttempts &&
				tries().every((request) => request.handling !== 'never answered'),
			3 * loadMarginMs,
		);
		expect(tries()).toHaveLength(defaultRetryPolicy.maxAttempts);
		// Bounded: each try ends at the 3 s limit (the default, 60 s, would take 5 minutes).
		expect(ms).toBeLessThan(10_000 + defaultRetryPolicy.maxAttempts * 3000 + loadMarginMs);
	});

	it('stopping the execution while a JSON request hangs returns at once and closes the request', async () => {
		const creds = await credentials();
		variant.on((request) => (request.route === 'GET /usage' ? { hang: true } : undefined));
		await stopWhileOpen(
			creds,
			{ resource: 'account', operation: 'getUsage' },
			'GET /usage',
			'never answered',
		);
		expect(variant.of('GET /usage')).toHaveLength(1);
	});

	it(
		'a download that keeps trickling succeeds though it takes longer than the idle limit: that ' +
			'limit is between chunks',
		async () => {
			const { creds, id } = await completedJob();
			const preview = downloadFiles(id);
			const [whole] = itemsOf(
				await runNode({ credentials: creds, parameters: preview, input: [{}] }),
			);
			// A chunk every 1.5 s, the idle limit (and the wait for the answer) 6 s: a loaded machine may delay a
			// chunk by 4.5 s (2 s was too short for the answer at load average 90).
			timeLimits.fileIdleMs = 6000;
			variant.on((request) =>
				request.route === 'GET /uploads/{id}/preview'
					? { trickle: { chunks: 15, everyMs: timeLimits.fileIdleMs / 4 } }
					: undefined,
			);
			const started = Date.now();
			const [trickled] = itemsOf(
				await runNode({ credentials: creds, parameters: preview, input: [{}] }),
			);
			expect(Date.now() - started).toBeGreaterThanOrEqual(3 * timeLimits.fileIdleMs);
			expect(variant.of('GET /uploads/{id}/preview').map((request) => request.handling)).toEqual([
				'passed',
				'trickled in 15 chunks',
			]);
			expect(
				(await binaryBuffer(trickled.binary!.preview)).equals(
					await binaryBuffer(whole.binary!.preview),
				),
			).toBe(true);
		},
	);

	it('a download that keeps trickling past the limit on the whole file fails at that limit', async () => {
		const { creds, id } = await completedJob();
		// The answer has 10 s to start (2 s was too short at load average 90); the whole file 8 s.
		Object.assign(timeLimits, { fileIdleMs: 10_000, fileTotalMs: 8000 });
		// The trickle would take 30 s: ending at the 8 s limit is told apart from ending with it.
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview'
				? { trickle: { chunks: 61, everyMs: 500 } }
				: undefined,
		);
		const started = Date.now();
		const result = await runNode({
			credentials: creds,
			parameters: downloadFiles(id),
			input: [{}],
		});
		expect(result.error?.message).toMatch(/The download of \S+ took longer than 8 s/);
		expect(Date.now() - started).toBeLessThan(8000 + loadMarginMs);
		expect(result.items).toHaveLength(0);
	});

	it('a download that stops sending bytes fails after the idle limit', async () => {
		const { creds, id } = await completedJob();
		// Also the wait for the answer to start: 0.7 s was too short for it at load average 90.
		timeLimits.fileIdleMs = 10_000;
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview' ? { stallAfterBytes: 20 } : undefined,
		);
		const started = Date.now();
		const result = await runNode({
			credentials: creds,
			parameters: downloadFiles(id),
			input: [{}],
		});
		expect(result.error?.message).toMatch(/No data arrived for 10 s while downloading/);
		// Ended by the idle limit (a stall never ends by itself); before the download, the run's own requests.
		expect(Date.now() - started).toBeLessThan(10_000 + 3 * loadMarginMs);
		// The failed download does not leave its connection open (the service may notice a moment later).
		await eventually(
			() => variant.of('GET /uploads/{id}/preview')[0].handling !== 'stalled',
			3 * loadMarginMs,
		);
		expect(variant.of('GET /uploads/{id}/preview')[0].handling).toBe(
			'stalled, then closed by the client',
		);
	});

	it('stopping the execution mid-download closes the open request at once', async () => {
		const { creds, id } = await completedJob();
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview' ? { stallAfterBytes: 20 } : undefined,
		);
		await stopWhileOpen(creds, downloadFiles(id), 'GET /uploads/{id}/preview', 'stalled');
	});
});

/** Sends `status` with the first bytes of a JSON error body, then nothing more (the connection stays open). */
function stallErrorBody(response: ServerResponse, status: number): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.write('{"message":"The signed');
}

/** Sends `body` one byte every `everyMs`: an answer that keeps arriving, never idle, never quick. */
function trickleJson(response: ServerResponse, body: unknown, everyMs: number): void {
	const bytes = Buffer.from(JSON.stringify(body));
	response.writeHead(200, {
		'content-type': 'application/json',
		'content-length': String(bytes.length),
	});
	let sent = 0;
	const next = () => {
		if (response.destroyed) return;
		response.write(bytes.subarray(sent, sent + 1));
		sent++;
		if (sent < bytes.length) setTimeout(next, everyMs);
		else response.end();
	};
	next();
}

/** Runs the node, stopped after `stopAfterMs` should it still run then; the run and how long it took. */
async function runBounded(options: Parameters<typeof runNode>[0], stopAfterMs: number) {
	const controller = new AbortController();
	const stop = setTimeout(() => controller.abort(), stopAfterMs);
	const started = Date.now();
	try {
		const result = await runNode({ ...options, signal: controller.signal });
		return { result, ms: Date.now() - started };
	} finally {
		clearTimeout(stop);
	}
}

describe('every body the node reads is under a time limit (real time)', () => {
	useRealTime(clock);

	const preview = (host: string) =>
		`http://${host}/api/v1/uploads/up1/preview?expires=1&signature=s1`;

	it.each([
		['Job > Download', 404, () => download(['preview']), () => [{}]],
		[
			"Create's Download Results",
			404,
			() =>
				create({
					waitForCompletion: true,
					timeout: 60,
					downloadResults: ['preview'],
					showWarnings: false,
				}),
			() => [file('a.dst', 10)],
		],
		[
			'File > Download',
			403,
			(): INodeParameters => ({ resource: 'file', operation: 'download', url: '' }),
			() => [{}],
		],
	] as const)(
		'%s: an error answer (HTTP %i) whose body stalls fails after the idle limit, naming the status',
		async (_operation, status, parameters, input) => {
			timeLimits.fileIdleMs = 500;
			await withServer(
				(request, response) => {
					const host = String(request.headers.host);
					if (request.method === 'POST') {
						const job = { id: jobIds.a, status: 'queued', workflow: 'conversion' };
						return sendJson(response, 202, { message: 'Accepted', job, jobs: [job], freeUsage });
					}
					if (request.url === '/api/v1/jobs')
						return sendJson(response, 200, {
							data: [
								{
									...listItem(jobIds.a, 'completed'),
									preview: {
										id: 'up1',
										name: 'p.png',
										downloadUrl: null,
										previewUrl: preview(host),
									},
								},
							],
							freeUsage,
						});
					if (request.url.startsWith('/api/v1/jobs/'))
						return sendJson(
							response,
							200,
							detailedJob(jobIds.a, 'completed', {
								artifacts: [{ kind: 'preview', previewUrl: preview(host), downloadUrl: null }],
							}),
						);
					stallErrorBody(response, status);
				},
				async (server) => {
					const host = new URL(server.origin).host;
					const params: INodeParameters = { ...parameters() };
					if (params.resource === 'file') params.url = preview(host);
					const { result, ms } = await runBounded(
						{
							credentials: { apiKey, baseUrl: server.baseUrl },
							parameters: params,
							input: [...input()],
						},
						30_000,
					);
					expect(result.error?.message).toMatch(new RegExp(`HTTP ${status}|${status}`));
					expect(result.error?.message).not.toMatch(/cancel/i);
					expect(ms).toBeLessThan(5000 + loadMarginMs);
				},
			);
		},
	);

	it('a JSON answer trickled a byte at a time fails each try after the JSON limit in all', async () => {
		timeLimits.jsonMs = 600;
		const usage = { freeUsage: { ...freeUsage, note: 'x'.repeat(200) } };
		await withServer(
			(_request, response) => trickleJson(response, usage, 100),
			async (server) => {
				const { result, ms } = await runBounded(
					{
						credentials: { apiKey, baseUrl: server.baseUrl },
						parameters: { resource: 'account', operation: 'getUsage' },
						input: [{}],
					},
					40_000,
				);
				expect(result.error?.message).toBe(
					'The service could not be reached: no complete answer within 0.6 s [item 0]',
				);
				expect(server.requests).toHaveLength(defaultRetryPolicy.maxAttempts);
				expect(ms).toBeLessThan(defaultRetryPolicy.maxAttempts * 600 + 3000 + loadMarginMs);
			},
		);
	});
});
