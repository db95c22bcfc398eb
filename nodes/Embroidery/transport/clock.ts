import { sleep as n8nSleep } from 'n8n-workflow';

/**
 * The one clock the node reads: pacing windows, Retry-After, backoff, poll intervals, wait timeouts and
 * idle limits all ask it, so a test can drive time instead of waiting for it (`useClock`).
 */
export interface Clock {
	now(): number;
	/** Resolves after `ms`, or rejects as soon as `signal` fires. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function abortReasonOf(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('The execution was cancelled');
}

/**
 * Wall time. n8n 1.x's `sleep` ignores its signal, so the wait also ends on the signal itself: Stop
 * returns at once on every n8n line (the timer, when the signal is ignored, runs out on its own).
 */
export const wallClock: Clock = {
	now: () => Date.now(),
	async sleep(ms, signal) {
		if (!signal) return await n8nSleep(ms);
		if (signal.aborted) throw abortReasonOf(signal);
		await new Promise<void>((resolve, reject) => {
			const onAbort = () => reject(abortReasonOf(signal));
			signal.addEventListener('abort', onAbort, { once: true });
			n8nSleep(ms, signal).then(
				() => {
					signal.removeEventListener('abort', onAbort);
					resolve();
				},
				(error: unknown) => {
					signal.removeEventListener('abort', onAbort);
					reject(error instanceof Error ? error : abortReasonOf(signal));
				},
			);
		});
	},
};

let current: Clock = wallClock;

/** What the node's code calls: always the clock in force now. */
export const clock: Clock = {
	now: () => current.now(),
	sleep: async (ms, signal) => await current.sleep(ms, signal),
};

/** Puts another clock in force (tests) and returns what puts the previous one back. */
export function useClock(replacement: Clock): () => void {
	const previous = current;
	current = replacement;
	return () => {
		current = previous;
	};
}
