import { clock } from './clock';
import type { Clock } from './clock';

const stepMs = 5000;

/** How waiting for an answer ended: the answer, its failure, or the node's limit or Stop (`ended`). */
export type Waited<T> = { answer: T } | { failed: unknown } | { ended: 'limit' | 'cancel' };

/**
 * Waits for `answer` at most `ms` (on `time`, the node's clock unless said otherwise) and never past the
 * execution's Stop; on either, the work underneath is ended with `stop`. The limit counts in all, however the
 * answer trickles in meanwhile.
 */
export async function withinLimit<T>(
	answer: Promise<T>,
	ms: number,
	cancel: AbortSignal | undefined,
	stop: () => void,
	time: Clock = clock,
): Promise<Waited<T>> {
	const timer = new AbortController();
	const deadline = time.now() + ms;
	const runOut = async () => {
		// In short steps: n8n 1.x's sleep keeps its timer after an abort, so none outlives the limit by long.
		for (let left = ms; left > 0; left = deadline - time.now())
			await time.sleep(Math.min(left, stepMs), timer.signal);
	};
	const limit = runOut().then(
		(): Waited<T> => ({ ended: 'limit' }),
		() => new Promise<never>(() => undefined),
	);
	const cancelled = new Promise<Waited<T>>((resolve) => {
		if (!cancel) return;
		const onAbort = () => resolve({ ended: 'cancel' });
		if (cancel.aborted) onAbort();
		else {
			cancel.addEventListener('abort', onAbort, { once: true });
			timer.signal.addEventListener('abort', () => cancel.removeEventListener('abort', onAbort), {
				once: true,
			});
		}
	});
	const answered = answer.then(
		(value): Waited<T> => ({ answer: value }),
		(error: unknown): Waited<T> => ({ failed: error }),
	);
	try {
		const outcome = await Promise.race([answered, limit, cancelled]);
		if ('ended' in outcome) stop();
		return outcome;
	} finally {
		timer.abort();
	}
}
