import { planBatches } from '../../../../nodes/Embroidery/helpers/jobCreation/batching';
import { defaultPollSchedule, pollDelayMs } from '../../../../nodes/Embroidery/helpers/waiting';
import { LearnedLimitPacer, RequestPacer } from '../../../../nodes/Embroidery/transport/pacing';
import {
	backoffMs,
	defaultRetryPolicy,
	parseRetryAfterMs,
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

	test('Retry-After is read as seconds or an HTTP date', () => {
		expect(parseRetryAfterMs('7')).toBe(7000);
		expect(parseRetryAfterMs(['2'])).toBe(2000);
		expect(parseRetryAfterMs(undefined)).toBeNull();
		expect(parseRetryAfterMs('soon')).toBeNull();
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
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

describe('pacing', () => {
	test('at most `limit` request starts in any window', () => {
		let now = 0;
		const pacer = new RequestPacer(3, 1000, () => now);
		const starts: number[] = [];
		for (let i = 0; i < 7; i++) {
			const delay = pacer.delayBeforeNext();
			now += delay;
			starts.push(now);
			void pacer.waitForTurn();
			now += 10;
		}
		for (let i = 3; i < starts.length; i++)
			expect(starts[i] - starts[i - 3]).toBeGreaterThanOrEqual(1000);
		expect(starts.slice(0, 3)).toEqual([0, 10, 20]);
	});

	test('waitForTurn really waits when the window is full, and can be cancelled', async () => {
		const pacer = new RequestPacer(2, 300);
		const started = Date.now();
		await pacer.waitForTurn();
		await pacer.waitForTurn();
		await pacer.waitForTurn();
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		const slow = new RequestPacer(1, 60_000);
		await slow.waitForTurn();
		const controller = new AbortController();
		const waiting = slow.waitForTurn(controller.signal);
		controller.abort(new Error('stopped'));
		await expect(waiting).rejects.toThrow('stopped');
	});
});

describe('learned unlock pacing', () => {
	test('holds nothing back until a 429, then keeps to the number the service accepted in the window', () => {
		let now = 0;
		const pacer = new LearnedLimitPacer(60_000, () => now);
		for (let i = 0; i < 10; i++) {
			expect(pacer.delayBeforeNext()).toBe(0);
			pacer.recordAccepted(now);
			now += 1000;
		}
		// The 11th is refused until the 1st (at 0 s) leaves the window: Retry-After 51 s at 10 s.
		pacer.recordRefused(51_000);
		expect(pacer.limit).toBe(10);
		expect(pacer.delayBeforeNext()).toBe(60_000 + 500 - now);
		now = 60_600;
		expect(pacer.delayBeforeNext()).toBe(0);
		pacer.recordAccepted(now);
		// Now the 2nd (at 1 s) must leave the window before the next may start.
		expect(pacer.delayBeforeNext()).toBe(61_000 + 500 - now);
	});

	test(
		"a 429 that cannot be this limit (Retry-After shorter than the oldest request's time left) " +
			'teaches nothing',
		() => {
			let now = 0;
			const pacer = new LearnedLimitPacer(60_000, () => now);
			pacer.recordAccepted(now);
			now = 5000;
			pacer.recordAccepted(now);
			pacer.recordRefused(1000);
			pacer.recordRefused(null);
			expect(pacer.limit).toBeUndefined();
			expect(pacer.delayBeforeNext()).toBe(0);
			// Without a request of its own in the window, a 429 says nothing about the count either.
			const fresh = new LearnedLimitPacer(60_000, () => now);
			fresh.recordRefused(30_000);
			expect(fresh.limit).toBeUndefined();
		},
	);
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
