import type { HttpMethod } from './routes';

export interface RetryPolicy {
	/** Tries of one request after 5xx answers or lost connections (GET only), the first included. */
	maxAttempts: number;
	/**
	 * How long one request keeps trying after 429s or an upload the server cut off before reading it: both
	 * are refused before the service does anything, so they are repeated until this much time has passed since
	 * the request's first refusal.
	 */
	refusedBudgetMs: number;
	/** The first backoff: a passing server error or dropped connection is often gone a second later. */
	baseDelayMs: number;
	/** The longest backoff: doubling stops here, so the last tries still come within the execution's patience. */
	maxDelayMs: number;
	/** Upper bound of the random extra wait added to every delay. */
	maxJitterMs: number;
	/** A Retry-After longer than this is not waited out inside an execution. */
	maxRetryAfterMs: number;
}

/** How the node tries a request again; tests shrink it, as they do the time limits. */
export const defaultRetryPolicy: RetryPolicy = {
	maxAttempts: 5,
	refusedBudgetMs: 300_000,
	baseDelayMs: 1000,
	maxDelayMs: 30_000,
	maxJitterMs: 500,
	maxRetryAfterMs: 120_000,
};

/** Why a request may be sent again, or null when it must not. */
export type RetryReason = 'rateLimited' | 'bodyNotSent' | 'serverError' | 'networkError';

/** Reasons retried within `refusedBudgetMs` rather than `maxAttempts`: the service did nothing with the request. */
function serviceLeftUntouched(reason: RetryReason): boolean {
	return reason === 'rateLimited' || reason === 'bodyNotSent';
}

/**
 * A POST is retried only after 429, which the service answers before doing anything, or when its body could
 * not be sent completely (the service cannot act on a partial request); after a 5xx or a connection lost
 * once the whole body was sent it may already have created or unlocked a job.
 */
export function retryReason(
	method: HttpMethod,
	outcome: { status: number } | { networkError: true; bodyNotSent?: boolean },
): RetryReason | null {
	if ('networkError' in outcome) {
		if (method === 'GET') return 'networkError';
		return outcome.bodyNotSent ? 'bodyNotSent' : null;
	}
	if (outcome.status === 429) return 'rateLimited';
	if (outcome.status >= 500 && outcome.status <= 599 && method === 'GET') return 'serverError';
	return null;
}

/** Exponential backoff from baseDelayMs, doubled per attempt (1-based), capped at maxDelayMs. */
export function backoffMs(attempt: number, policy: RetryPolicy): number {
	return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/** How long to wait before the next try: the server's Retry-After when given, else backoff; plus jitter. */
export function retryDelayMs(
	attempt: number,
	retryAfterMs: number | null,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number {
	const base = retryAfterMs ?? backoffMs(attempt, policy);
	return base + Math.floor(random() * policy.maxJitterMs);
}

/** Errors and the errors they wrap, outermost first (n8n wraps axios's error, which wraps the socket's). */
function errorChain(error: unknown): object[] {
	const chain: object[] = [];
	for (
		let link = error;
		link !== null && typeof link === 'object' && chain.length < 5;
		link = (link as { cause?: unknown }).cause
	) {
		chain.push(link);
	}
	return chain;
}

/**
 * Whether a request that got no answer was cut off before its body was completely written: the socket said
 * EPIPE (the server closed it while the upload was being sent), or n8n's request (Node's ClientRequest, on
 * axios's error) never finished writing. A request whose body was fully sent and then lost its connection
 * (reset, time limit) is not one: the service may have acted on it.
 */
export function bodyNotSent(error: unknown): boolean {
	const chain = errorChain(error);
	if (chain.some((link) => (link as { code?: unknown }).code === 'EPIPE')) return true;
	const request = chain
		.map((link) => (link as { request?: unknown }).request)
		.find(
			(candidate) =>
				candidate !== null && typeof candidate === 'object' && 'writableFinished' in candidate,
		);
	return (request as { writableFinished?: unknown } | undefined)?.writableFinished === false;
}

/**
 * The wait before the next try of a request that got no answer or a 5xx, null when it must not be sent again:
 * an upload cut off before it was sent is a refusal (kept trying within the time budget), the rest count tries.
 */
export function failureDelayMs(
	reason: RetryReason | null,
	tries: { refused: number; failed: number },
	elapsedMs: number,
	policy: RetryPolicy,
): number | null {
	if (reason === null) return null;
	if (!serviceLeftUntouched(reason))
		return tries.failed < policy.maxAttempts ? retryDelayMs(tries.failed, null, policy) : null;
	const delay = retryDelayMs(tries.refused, null, policy);
	return elapsedMs + delay <= policy.refusedBudgetMs ? delay : null;
}
