/** Accounts taking turns for reading request bodies: a large upload gives way to another account's small one. */
import {
	longestYieldMs,
	recentRequestMs,
	smallRequestBytes,
	UploadTurns,
} from '../../../sandbox/http/uploadTurns';

const megabyte = 1024 * 1024;

/** Resolves true once `promise` has settled, false while it is still pending after the queued callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	for (let turn = 0; turn < 5; turn++) await Promise.resolve();
	return done;
}

describe('UploadTurns', () => {
	it(`pauses a large request while another account's small request is open and ${recentRequestMs} ms on`, async () => {
		jest.useFakeTimers();
		try {
			const turns = new UploadTurns();
			const large = turns.begin('hostile');
			await large.streamed(smallRequestBytes);
			const small = turns.begin('shop');
			await small.streamed(20_000);
			const next = large.streamed(megabyte);
			expect(await settled(next)).toBe(false);
			small.end();
			// That account's client is polling its job or sending the next one.
			await jest.advanceTimersByTimeAsync(recentRequestMs - 100);
			expect(await settled(next)).toBe(false);
			await jest.advanceTimersByTimeAsync(200);
			expect(await settled(next)).toBe(true);
		} finally {
			jest.useRealTimers();
		}
	});

	it('lets a large request read on once the other request stops being small', async () => {
		const turns = new UploadTurns();
		const large = turns.begin('hostile');
		await large.streamed(2 * megabyte);
		const other = turns.begin('other');
		const next = large.streamed(megabyte);
		expect(await settled(next)).toBe(false);
		// Two large requests never wait for each other.
		await other.streamed(2 * megabyte);
		expect(await settled(next)).toBe(true);
		expect(await settled(other.streamed(megabyte))).toBe(true);
	});

	it("never pauses a small request, nor a large one for its own account's requests", async () => {
		const turns = new UploadTurns();
		const large = turns.begin('shop');
		turns.begin('shop');
		turns.begin('hostile');
		expect(await settled(turns.begin('other').streamed(megabyte))).toBe(true);
		await large.streamed(smallRequestBytes);
		// The hostile account's request is small and in progress: the large one waits for it alone.
		const next = large.streamed(megabyte);
		expect(await settled(next)).toBe(false);
	});

	describe('with a driven clock', () => {
		beforeEach(() => jest.useFakeTimers());
		afterEach(() => jest.useRealTimers());

		it("pauses a large request while another account's short job is processing, until it ends", async () => {
			let working = new Set(['shop']);
			const turns = new UploadTurns((accountId) => [...working].some((id) => id !== accountId));
			const large = turns.begin('hostile');
			const next = large.streamed(2 * megabyte);
			await jest.advanceTimersByTimeAsync(1000);
			expect(await settled(next)).toBe(false);
			// Its own account's jobs hold it back in nothing; a small request is never held.
			expect(await settled(turns.begin('shop').streamed(2 * megabyte))).toBe(true);
			const small = turns.begin('other');
			expect(await settled(small.streamed(20_000))).toBe(true);
			small.end();
			working = new Set();
			await jest.advanceTimersByTimeAsync(100);
			// The other account's small request ended just now: it gives way a little longer.
			expect(await settled(next)).toBe(false);
			await jest.advanceTimersByTimeAsync(recentRequestMs);
			expect(await settled(next)).toBe(true);
		});

		it(`gives way for at most ${longestYieldMs / 1000} s in all: a slow small request holds no one long`, async () => {
			const turns = new UploadTurns();
			const large = turns.begin('hostile');
			await large.streamed(2 * megabyte);
			turns.begin('slow');
			const next = large.streamed(megabyte);
			await jest.advanceTimersByTimeAsync(longestYieldMs - 1);
			expect(await settled(next)).toBe(false);
			await jest.advanceTimersByTimeAsync(1);
			expect(await settled(next)).toBe(true);
			// Its allowance spent, it reads on.
			expect(await settled(large.streamed(megabyte))).toBe(true);
		});
	});
});
