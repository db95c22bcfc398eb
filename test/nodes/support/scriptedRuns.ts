/** Running the action node against a scripted service: its server, the key it is given, and common parameters. */
import type { INodeParameters } from 'n8n-workflow';

import { defaultRetryPolicy } from '../../../nodes/Embroidery/transport';
import { jobIds } from './fakeJobs';
import { startScriptedServer } from './scriptedServer';
import type { Handler } from './scriptedServer';

export const apiKey = 'emb_test_key_0123456789';

export async function withServer(
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

/**
 * Backoff of 20 ms (jitter 5 ms) between a request's tries for the surrounding describe, so a test sees every
 * try in real time; `extra` changes more of the policy. Put back after it.
 */
export function useQuickRetries(extra: Partial<typeof defaultRetryPolicy> = {}) {
	const saved = { ...defaultRetryPolicy };
	beforeAll(() => Object.assign(defaultRetryPolicy, { baseDelayMs: 20, maxJitterMs: 5, ...extra }));
	afterAll(() => Object.assign(defaultRetryPolicy, saved));
}

export const create = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'job',
	operation: 'create',
	workflow: 'conversion',
	binaryPropertyName: 'data',
	format: 'pes',
	...extra,
});

export const file = (fileName: string, bytes: number, mimeType = 'application/octet-stream') => ({
	binary: { data: { data: Buffer.alloc(bytes, 1), fileName, mimeType } },
});

/** Job > Wait for Completion of a conversion: the job of each item's `id`, unless `extra` names one. */
export const waitFor = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'job',
	operation: 'waitForCompletion',
	jobId: '={{ $json.id }}',
	workflow: 'conversion',
	...extra,
});

/** Job > Download of the conversion job `jobIds.a`: the files named. */
export const download = (files: string[]): INodeParameters => ({
	resource: 'job',
	operation: 'download',
	jobId: jobIds.a,
	workflow: 'conversion',
	files,
});
