import type { SandboxClock } from '../services/clock';
import { RateLimitedError } from '../services/errors';

/** The per-key limits of the v1 API, per rolling minute. */
export const rateLimits = {
	/** Every v1 request, as the spec states. */
	general: 60,
	/** Job creation requests (upload control). */
	jobCreation: 20,
	/** Unlock requests (the tighter billing-action limit). */
	unlock: 10,
	windowSeconds: 60,
} as const;

/**
 * The spec's separate network-level ceiling, per client address and rolling minute, checked before
 * the key. Its real value is not published; the default lets ten keys of one machine reach their own limits.
 */
export const defaultNetworkRateLimit = 1200;

/** Sliding-window counters: a request is allowed when fewer than `limit` were allowed in the last window. */
export class RateLimiter {
	private readonly hits = new Map<string, number[]>();

	constructor(private readonly clock: SandboxClock) {}

	/** Counts one request against `bucket`, or throws 429 with the seconds until a slot frees. */
	take(bucket: string, limit: number, message: string): void {
		const now = this.clock.now();
		const windowMs = rateLimits.windowSeconds * 1000;
		const recent = (this.hits.get(bucket) ?? []).filter((at) => at > now - windowMs);
		if (recent.length >= limit) {
			this.hits.set(bucket, recent);
			const retryAfter = Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
			throw new RateLimitedError(retryAfter, message);
		}
		recent.push(now);
		this.hits.set(bucket, recent);
	}

	clear(): void {
		this.hits.clear();
	}
}
