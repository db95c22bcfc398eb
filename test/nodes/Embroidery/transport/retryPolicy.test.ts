import { planBatches } from '../../../../nodes/Embroidery/helpers/jobCreation/batching';
import { defaultPollSchedule, pollDelayMs } from '../../../../nodes/Embroidery/helpers/waiting';
import {
	backoffMs,
	defaultRetryPolicy,
	retryDelayMs,
	retryReason,
} from '../../../../nodes/Embroidery/transport/retryPolicy';
import { redact } from '../../../../nodes/Embroidery/transport/errors';
import { routes } from '../../../../nodes/Embroidery/transport/routes';

describe('retry policy', () => {
	test('429 is retried for every method; 5xx and network errors only for GET', () => {
		expect(retryReason('POST', { status: 429 })).toBe('rateLimited');
		expect(retryReason('GET', { status: 429 })).toBe('rateLimited');
		expect(retryReason('GET', { status: 503 })).toBe('serverError');
		expect(retryReason('POST', { status: 503 })).toBeNull();
		expect(retryReason('GET', { networkError: true })).toBe('networkError');
		expect(retryReason('POST', { networkError: true })).toBeNull();
		expect(retryReason('GET', { status: 404 })).toBeNull();
		expect(retryReason('GET', { status: 422 })).toBeNull();
	});

	test('backoff doubles from 1 s up to 30 s, jitter stays within its bound', () => {
		expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffMs(attempt, defaultRetryPolicy))).toEqual([
			1000, 2000, 4000, 8000, 16000, 30000, 30000,
		]);
		expect(retryDelayMs(1, null, defaultRetryPolicy, () => 0)).toBe(1000);
		expect(retryDelayMs(1, null, defaultRetryPolicy, () => 0.999)).toBeLessThan(
			1000 + defaultRetryPolicy.maxJitterMs,
		);
		expect(retryDelayMs(3, 5000, defaultRetryPolicy, () => 0.5)).toBe(
			5000 + defaultRetryPolicy.maxJitterMs / 2,
		);
	});
});

describe('waiting schedule', () => {
	test('polls about every 2 s at first, growing to 30 s, with up to 20% jitter', () => {
		const plain = [1, 2, 3, 4, 8, 20].map((round) =>
			pollDelayMs(round, defaultPollSchedule, () => 0),
		);
		expect(plain).toEqual([2000, 3000, 4500, 6750, 30000, 30000]);
		expect(pollDelayMs(1, defaultPollSchedule, () => 1)).toBe(2400);
	});
});

describe('batching', () => {
	const source = (itemIndex: number, bytes = 1000) => ({ itemIndex, bytes });

	test('one request per item keeps each item whole', () => {
		const batches = planBatches([[source(0), source(0)], [], [source(2)]], 'perItem');
		expect(batches.map((batch) => batch.map((s) => s.itemIndex))).toEqual([[0, 0], [2]]);
	});

	test('combining packs up to 10 sources per request, in order', () => {
		const items = Array.from({ length: 23 }, (_, index) => [source(index)]);
		const batches = planBatches(items, 'combine');
		expect(batches.map((batch) => batch.length)).toEqual([10, 10, 3]);
		expect(batches.flat().map((s) => s.itemIndex)).toEqual(items.flat().map((s) => s.itemIndex));
	});

	test('combining respects the byte cap, and a single large source still gets its own request', () => {
		const mb = 1024 * 1024;
		const batches = planBatches(
			[[source(0, 30 * mb)], [source(1, 30 * mb)], [source(2, 50 * mb)], [source(3, 1)]],
			'combine',
			{
				maxSources: 10,
				maxBytes: 64 * mb,
			},
		);
		expect(batches.map((batch) => batch.map((s) => s.itemIndex))).toEqual([
			[0, 1],
			[2, 3],
		]);
	});
});

describe('errors', () => {
	test('redact removes the key and any Bearer token', () => {
		expect(redact('key abc12345 in Bearer abc12345', ['abc12345'])).toBe(
			'key [redacted] in Bearer [redacted]',
		);
		expect(redact('Authorization: Bearer xyz.987', [])).toBe('Authorization: Bearer [redacted]');
	});

	test('each route names the ability it needs', () => {
		const ref = { id: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7', workflow: 'conversion' as const };
		expect(routes.listFormats().ability).toBe('formats:read');
		expect(routes.getUsage().ability).toBe('usage:read');
		expect(routes.getJob(ref).ability).toBe('jobs:read');
		expect(routes.listJobs().ability).toBe('jobs:read');
		expect(routes.createJobs().ability).toBe('jobs:write');
		expect(routes.retryJob(ref).ability).toBe('jobs:write');
		expect(routes.unlockJob(ref).ability).toBe('jobs:write');
		expect(routes.unlockJob(ref).path).toBe('/jobs/conversion/01J9Z3Q4W8Y6V5T2R1P0N9M8K7/unlock');
	});
});
