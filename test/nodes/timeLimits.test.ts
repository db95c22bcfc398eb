/**
 * The transport's time limits in real time (a real hang, a real stall, a real trickle): bounded tries of a request
 * that is never answered, an idle limit between a download's chunks, and stopping an execution mid-request.
 */
import type { INodeParameters } from 'n8n-workflow';

import { defaultRetryPolicy, timeLimits } from '../../nodes/Embroidery/transport';
import { binaryBuffer, runNode } from '../support/n8n';
import type { ApiCredentials } from '../support/n8n';
import { eventually } from '../support/realTime';
import { useRealTime } from '../support/testClock';
import { itemsOf } from './support/sandboxRun';
import { useVariantSuite } from './support/variantSuite';

jest.setTimeout(120_000);

const { clock, variant, credentials, completedJob } = useVariantSuite();

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
	await eventually(() => variant.of(route)[0]?.handling === open);
	const stoppedAt = Date.now();
	controller.abort();
	const result = await running;
	expect(Date.now() - stoppedAt).toBeLessThan(2000);
	expect(result.items).toHaveLength(0);
	await eventually(() => variant.of(route)[0].handling !== open, 2000);
	expect(variant.of(route)[0].handling).toBe(`${open}, then closed by the client`);
}

describe('nothing hangs (real time)', () => {
	useRealTime(clock);

	it('a service that never answers fails each try after the JSON time limit, a bounded number of times', async () => {
		const creds = await credentials();
		timeLimits.jsonMs = 300;
		variant.on((request) => (request.route === 'GET /usage' ? { hang: true } : undefined));
		const started = Date.now();
		const result = await runNode({
			credentials: creds,
			parameters: { resource: 'account', operation: 'getUsage' },
			input: [{}],
		});
		expect(result.error?.message).toBe(
			'The service could not be reached: no answer within 0.3 s [item 0]',
		);
		expect(variant.of('GET /usage')).toHaveLength(defaultRetryPolicy.maxAttempts);
		expect(Date.now() - started).toBeLessThan(10_000);
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
		'a download that keeps trickling succeeds however long it takes: the limit is between ' +
			'chunks, not in total',
		async () => {
			const { creds, id } = await completedJob();
			const download = {
				resource: 'job',
				operation: 'download',
				jobId: id,
				workflow: 'conversion',
				files: ['preview'],
			};
			const [whole] = itemsOf(
				await runNode({ credentials: creds, parameters: download, input: [{}] }),
			);
			timeLimits.fileIdleMs = 1000;
			variant.on((request) =>
				request.route === 'GET /uploads/{id}/preview'
					? { trickle: { chunks: 7, everyMs: timeLimits.fileIdleMs / 2 } }
					: undefined,
			);
			const started = Date.now();
			const [trickled] = itemsOf(
				await runNode({ credentials: creds, parameters: download, input: [{}] }),
			);
			expect(Date.now() - started).toBeGreaterThanOrEqual(3 * timeLimits.fileIdleMs);
			expect(variant.of('GET /uploads/{id}/preview').map((request) => request.handling)).toEqual([
				'passed',
				'trickled in 7 chunks',
			]);
			expect(
				(await binaryBuffer(trickled.binary!.preview)).equals(
					await binaryBuffer(whole.binary!.preview),
				),
			).toBe(true);
		},
	);

	it('a download that stops sending bytes fails after the idle limit', async () => {
		const { creds, id } = await completedJob();
		timeLimits.fileIdleMs = 700;
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview' ? { stallAfterBytes: 20 } : undefined,
		);
		const started = Date.now();
		const result = await runNode({
			credentials: creds,
			parameters: {
				resource: 'job',
				operation: 'download',
				jobId: id,
				workflow: 'conversion',
				files: ['preview'],
			},
			input: [{}],
		});
		expect(result.error?.message).toMatch(/No data arrived for 1 s while downloading/);
		expect(Date.now() - started).toBeLessThan(10_000);
		// The failed download does not leave its connection open.
		await eventually(() => variant.of('GET /uploads/{id}/preview')[0].handling !== 'stalled', 2000);
		expect(variant.of('GET /uploads/{id}/preview')[0].handling).toBe(
			'stalled, then closed by the client',
		);
	});

	it('stopping the execution mid-download closes the open request at once', async () => {
		const { creds, id } = await completedJob();
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview' ? { stallAfterBytes: 20 } : undefined,
		);
		await stopWhileOpen(
			creds,
			{
				resource: 'job',
				operation: 'download',
				jobId: id,
				workflow: 'conversion',
				files: ['preview'],
			},
			'GET /uploads/{id}/preview',
			'stalled',
		);
	});
});
