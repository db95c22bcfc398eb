export interface RetryPolicy {
	/** Total tries of one request, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Upper bound of the random extra wait added to every delay. */
	maxJitterMs: number;
	/** A Retry-After longer than this is not waited out inside an execution. */
	maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 1000,
	maxDelayMs: 30_000,
	maxJitterMs: 500,
	maxRetryAfterMs: 120_000,
};

export type HttpMethod = 'GET' | 'POST';

/** Why a request may be sent again, or null when it must not. */
export type RetryReason = 'rateLimited' | 'serverError' | 'networkError';

/**
 * A POST is retried only after 429, which the service answers before doing anything;
 * after a 5xx or a lost connection it may already have created or unlocked a job.
 */
export function retryReason(
	method: HttpMethod,
	outcome: { status: number } | { networkError: true },
): RetryReason | null {
	if ('networkError' in outcome) return method === 'GET' ? 'networkError' : null;
	if (outcome.status === 429) return 'rateLimited';
	if (outcome.status >= 500 && outcome.status <= 599 && method === 'GET') return 'serverError';
	return null;
}

/** Seconds from a Retry-After header (integer seconds, or an HTTP date); null when absent or unusable. */
export function parseRetryAfterMs(header: unknown, now = Date.now()): number | null {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return null;
	const text = String(value).trim();
	if (text === '') return null;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return null;
	return Math.max(0, date - now);
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
