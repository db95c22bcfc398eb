import { pacingKey, serviceLimitKey } from './context';
import type { EmbroideryContext } from './context';
import { learnedPacerFor, pacerFor } from './pacing';
import type { LearnedLimitPacer, RequestPacer } from './pacing';
import { headerOf } from './responseBody';
import type { FullResponse } from './responseBody';
import { parseRetryAfterMs, refusalDelayMs } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import type { RequestAction } from './routes';

/**
 * The rate-limit gate every request passes, and everything a 429 does, in one place.
 *
 * Three limits stand in front of a request: this execution's own pace (55 a minute, under the service's
 * published 60 per key), what the service's 429s taught about the key's limit (shared by every execution of
 * this process, as other processes may use the key too), and the tighter limits of routes the service does
 * not publish: job creation ("upload and processing controls") and unlocks ("billing-action limit").
 * A route's limit is learned from its first 429 and then kept to, so a 50 MB upload is not sent again only
 * to be refused again: each 429 on job creation costs one whole upload of its files.
 */

/** Routes with a limit of their own besides the key's; the value names the pacer that learns it. */
const routeLimits: Partial<
	Record<RequestAction, (context: EmbroideryContext, origin: string) => string>
> = {
	// The creation limit belongs to the key, whichever execution uploads: learned once for the whole process.
	createJobs: (context, origin) => `${serviceLimitKey(context, origin)}|create`,
	unlockJob: (context) => `${pacingKey(context)}|unlock`,
};

export interface RateLimitGate {
	/** Waits until every limit allows the request to start; returns the slot it took. */
	waitForTurn(signal: AbortSignal | undefined): Promise<number>;
	/** The service answered (not 429 nor 5xx): it counted the request that started at `startedAt`. */
	recordCounted(startedAt: number): void;
	/**
	 * A 429: frees the slot the service did not count, and returns how long to wait before the request is
	 * sent again, or why it is not (`retryAfterMs` longer than the node waits, or the time budget spent).
	 */
	refused(
		response: FullResponse,
		slot: number,
		refusals: number,
		elapsedMs: number,
	): { delayMs: number } | { giveUp: { retryAfterSeconds?: number } };
}

export function rateLimitGate(
	context: EmbroideryContext,
	action: RequestAction,
	origin: string,
	policy: RetryPolicy,
): RateLimitGate {
	const executionPacer: RequestPacer = pacerFor(pacingKey(context));
	const keyPacer = learnedPacerFor(serviceLimitKey(context, origin), { limitLastsOneWindow: true });
	const routeKey = routeLimits[action]?.(context, origin);
	const routePacer: LearnedLimitPacer | undefined = routeKey
		? learnedPacerFor(routeKey) // kept while the pacer is in use: forgetting it would cost the next upload
		: undefined;
	return {
		async waitForTurn(signal) {
			await routePacer?.waitForTurn(signal, policy.maxJitterMs);
			await keyPacer.waitForTurn(signal, policy.maxJitterMs);
			return await executionPacer.waitForTurn(signal);
		},
		recordCounted(startedAt) {
			routePacer?.recordAccepted(startedAt);
			keyPacer.recordAccepted(startedAt);
		},
		refused(response, slot, refusals, elapsedMs) {
			executionPacer.giveBack(slot);
			const retryAfterMs = parseRetryAfterMs(headerOf(response.headers, 'retry-after'));
			if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) {
				return { giveUp: { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) } };
			}
			// A route's 429 is its own limit's: it teaches the route's pacer, not the key's general one.
			const refusedBy = routePacer ?? keyPacer;
			refusedBy.recordRefused(retryAfterMs);
			// Every request of the key (of the route) waits out the Retry-After together, instead of each being refused.
			if (retryAfterMs !== null) refusedBy.pause(retryAfterMs);
			// Before an upload is sent again, the learned limit must have a free slot too (waitForTurn waits for it).
			const delayMs = refusalDelayMs(refusals, retryAfterMs, policy);
			return elapsedMs + delayMs <= policy.refusedBudgetMs ? { delayMs } : { giveUp: {} };
		},
	};
}
