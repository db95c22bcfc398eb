import {
	LearnedLimitPacer,
	RequestPacer,
	parseRetryAfterMs,
} from '../../../../nodes/Embroidery/transport/rateLimit';

describe('Retry-After', () => {
	test('Retry-After is read as seconds or an HTTP date', () => {
		expect(parseRetryAfterMs('7')).toBe(7000);
		expect(parseRetryAfterMs(['2'])).toBe(2000);
		expect(parseRetryAfterMs(undefined)).toBeNull();
		expect(parseRetryAfterMs('soon')).toBeNull();
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
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

	test('waits from when an accepted upload was answered, and learns only what surely arrived in the window', () => {
		// Uploads on a loaded machine: each started at 0 s and 1 s, and was answered (so counted on arrival,
		// some time before) 3 s after it started. The service allows 2 in any 60 s.
		let now = 0;
		const accept = (pacer: LearnedLimitPacer, startedAt: number, answeredAt: number) => {
			now = answeredAt;
			pacer.recordAccepted(startedAt);
		};
		const pacer = new LearnedLimitPacer(60_000, () => now);
		accept(pacer, 0, 3000);
		accept(pacer, 1000, 4000);
		// The third is refused until the first's arrival leaves the window: Retry-After 57 s at 4 s.
		pacer.recordRefused(57_000);
		expect(pacer.limit).toBe(2);
		// The first upload may have arrived as late as its answer (3 s): its slot frees at 63 s, not 60 s.
		expect(pacer.delayBeforeNext()).toBe(3000 + 60_000 + 500 - now);
		// A request that started before the window but was answered in it is not counted when learning: the
		// service may already have let it go, and a limit learned with it would be one too high.
		const late = new LearnedLimitPacer(60_000, () => now);
		accept(late, 0, 59_000);
		accept(late, 58_000, 61_000);
		late.recordRefused(57_000);
		expect(late.limit).toBe(1);
	});
});
