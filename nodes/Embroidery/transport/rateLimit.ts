import { clock } from './clock';
import { credentialIdOf } from './context';
import type { EmbroideryContext } from './context';
import { generalAdvice } from './nextSteps';
import type { Explanation } from './nextSteps';
import { headerOf } from './responseBody';
import type { FullResponse } from './responseBody';
import { retryDelayMs } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import type { FailedRequest, RequestAction } from './routes';

/**
 * The rate-limit gate every request passes, and everything a 429 does, in one place.
 *
 * Three limits stand in front of a request: this execution's own pace (55 a minute, under the service's
 * published 60 per key), what the service's 429s taught about the key's limit (shared by every execution of
 * this process, as other processes may use the key too), and the tighter limits of routes the service does
 * not publish: job creation ("upload and processing controls") and unlocks ("billing-action limit").
 * A route's limit is learned from its first 429 and then kept to, so a 50 MB upload is not sent again only
 * to be refused again: each 429 on job creation costs one whole upload of its files.
 *
 * What a 429 does (send.ts hands every one to the gate's `refused`): its slot is given back (the service did
 * not count it); a Retry-After (seconds or an HTTP date, `parseRetryAfterMs`) longer than the policy's
 * `maxRetryAfterMs` (2 min, retryPolicy.ts) ends the request at once; otherwise the limit that refused it learns
 * from it and pauses every request it governs until the Retry-After has passed, and the request is sent again
 * after `refusalDelayMs` (the Retry-After, or doubling backoff without one), any method, a POST included (the
 * service acted on nothing), for as long as `refusedBudgetMs` (5 min) allows. A request that stays refused
 * fails with `rateLimitExplanation` (its words are in nextSteps.ts).
 */

/** Requests of one execution and one credential share a pacer. */
function pacingKey(context: EmbroideryContext): string {
	return `${context.getExecutionId()}|${credentialIdOf(context)}`;
}

/** Requests of every execution of this process with one credential against one service share what its 429s taught. */
function serviceLimitKey(context: EmbroideryContext, origin: string): string {
	return `${credentialIdOf(context)}|${origin}`;
}

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

/** Seconds from a Retry-After header (integer seconds, or an HTTP date); null when absent or unusable. */
export function parseRetryAfterMs(header: unknown, now = clock.now()): number | null {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return null;
	const text = String(value).trim();
	if (text === '') return null;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return null;
	return Math.max(0, date - now);
}

/**
 * The wait after the `refusals`-th refusal in a row: the Retry-After when the service gives one, else (also for
 * "Retry-After: 0", which would have the client hammer it) backoff that doubles per refusal; plus jitter.
 */
export function refusalDelayMs(
	refusals: number,
	retryAfterMs: number | null,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number {
	return retryDelayMs(refusals, retryAfterMs === 0 ? null : retryAfterMs, policy, random);
}

/** What the user is told when a request stays refused: the service's wait was too long, or the time budget ran out. */
export function rateLimitExplanation(request: FailedRequest): Explanation {
	return {
		title: generalAdvice[429].title,
		description:
			request.retryAfterSeconds !== undefined
				? generalAdvice[429].waitTooLong(request.retryAfterSeconds)
				: generalAdvice[429].stillRefused(request.attempts),
	};
}

/** The service allows 60 requests a minute per key; a margin keeps clock skew from tipping it over. */
export const defaultPacing = { limit: 55, windowMs: 60_000 };

/** A sliding-window pacer: at most `limit` request starts in any `windowMs`. */
export class RequestPacer {
	private readonly starts: number[] = [];

	constructor(
		readonly limit: number,
		readonly windowMs: number,
		private readonly now: () => number = clock.now,
	) {}

	/** Milliseconds until another request may start (0 = now). */
	delayBeforeNext(): number {
		const now = this.now();
		while (this.starts.length > 0 && now - this.starts[0] >= this.windowMs) this.starts.shift();
		if (this.starts.length < this.limit) return 0;
		return this.starts[0] + this.windowMs - now;
	}

	/** Waits for a free slot and takes it; returns the start time it recorded. */
	async waitForTurn(signal?: AbortSignal): Promise<number> {
		for (let delay = this.delayBeforeNext(); delay > 0; delay = this.delayBeforeNext()) {
			await clock.sleep(delay, signal);
		}
		const startedAt = this.now();
		this.starts.push(startedAt);
		return startedAt;
	}

	/**
	 * The request that started at `startedAt` was refused with 429, which the service does not count:
	 * its slot is free again.
	 */
	giveBack(startedAt: number): void {
		const index = this.starts.indexOf(startedAt);
		if (index >= 0) this.starts.splice(index, 1);
	}

	/** No request started within the window. */
	get idle(): boolean {
		const last = this.starts[this.starts.length - 1];
		return last === undefined || this.now() - last > this.windowMs;
	}
}

/**
 * The pacer of `key`, made when first asked for; pacers of other keys that went idle are dropped so
 * the map stays small.
 */
function pacerIn<Pacer extends { readonly idle: boolean }>(
	pacers: Map<string, Pacer>,
	key: string,
	create: () => Pacer,
): Pacer {
	for (const [existingKey, existing] of pacers) {
		if (existingKey !== key && existing.idle) pacers.delete(existingKey);
	}
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = create();
		pacers.set(key, pacer);
	}
	return pacer;
}

const pacers = new Map<string, RequestPacer>();

/** One pacer per execution and credential, shared by every request of that execution (both nodes, all items). */
export function pacerFor(key: string): RequestPacer {
	return pacerIn(pacers, key, () => new RequestPacer(defaultPacing.limit, defaultPacing.windowMs));
}

/** Slack after a learned limit's slot frees, for the service's clock and its own rounding. */
const learnedSlotSlackMs = 500;

/**
 * A request the service accepted: when it started here and when its answer came. The service counted it at
 * some time between the two (when it arrived), which a slow upload on a loaded machine puts well after its start.
 */
interface AcceptedRequest {
	startedAt: number;
	answeredAt: number;
}

/**
 * Pacing for routes the service limits more tightly than it publishes (unlocks: "a tighter billing-action
 * limit"). Nothing is held back until the route answers 429; then the limit is learned as the number of this
 * pacer's requests the service accepted in the window, and later requests wait for a free slot instead of
 * being refused. A 429 whose Retry-After is shorter than the oldest of those requests' remaining time in the
 * window cannot be that limit (the service would count them), so it teaches nothing.
 *
 * Every 429 with a Retry-After also pauses the pacer: no request of its key starts before that time, so the
 * requests waiting on it make one pause together instead of each being refused again (the service's window
 * may be kept full by another process that this one cannot count).
 */
export class LearnedLimitPacer {
	private readonly accepted: AcceptedRequest[] = [];
	private learnedLimit: number | undefined;
	private learnedAt = 0;
	private pausedUntil = 0;

	/**
	 * `limitLastsOneWindow`: a learned limit is forgotten one window after it was learned (for a limit shared
	 * with other processes, whose share of it changes); otherwise it is kept while the pacer lives.
	 */
	constructor(
		readonly windowMs: number,
		private readonly now: () => number = clock.now,
		private readonly limitLastsOneWindow = false,
	) {}

	get limit(): number | undefined {
		if (this.limitLastsOneWindow && this.now() - this.learnedAt >= this.windowMs)
			this.learnedLimit = undefined;
		return this.learnedLimit;
	}

	/** Accepted requests the service may still count: answered within the window. */
	private inWindow(): AcceptedRequest[] {
		const now = this.now();
		while (this.accepted.length > 0 && now - this.accepted[0].answeredAt >= this.windowMs)
			this.accepted.shift();
		return this.accepted;
	}

	/** Milliseconds until another request may start (0 = now, always so until a limit is learned or a 429 paused it). */
	delayBeforeNext(): number {
		const paused = Math.max(0, this.pausedUntil - this.now());
		const recent = this.inWindow();
		const limit = this.limit;
		if (limit === undefined || recent.length < limit) return paused;
		// Waits from the answer, not the start: by then the service has counted the request.
		const slotFree =
			recent[recent.length - limit].answeredAt + this.windowMs + learnedSlotSlackMs - this.now();
		return Math.max(paused, slotFree);
	}

	/** `jitterMs` spreads the requests that waited out a pause so they do not all arrive in the same instant. */
	async waitForTurn(signal?: AbortSignal, jitterMs = 0): Promise<void> {
		let waited = false;
		for (let delay = this.delayBeforeNext(); delay > 0; delay = this.delayBeforeNext()) {
			await clock.sleep(delay, signal);
			waited = true;
		}
		if (waited && jitterMs > 0) await clock.sleep(Math.floor(Math.random() * jitterMs), signal);
	}

	get idle(): boolean {
		return this.inWindow().length === 0 && this.pausedUntil <= this.now();
	}

	/** A 429 said no request of this key may start for `retryAfterMs`: they all wait that long. */
	pause(retryAfterMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.now() + retryAfterMs);
	}

	/** A request that started at `startedAt` was answered now (not 429), so the service counted it. */
	recordAccepted(startedAt: number): void {
		this.accepted.push({ startedAt, answeredAt: this.now() });
		this.accepted.sort((a, b) => a.answeredAt - b.answeredAt);
	}

	/** The route answered 429 with this Retry-After (null when absent); one the node will wait out. */
	recordRefused(retryAfterMs: number | null): void {
		// Counted from the starts: requests that surely arrived within the window, so a limit learned from a
		// slow upload's answer is never above the service's.
		const now = this.now();
		const recent = this.inWindow().filter((request) => now - request.startedAt < this.windowMs);
		if (retryAfterMs === null || recent.length === 0) return;
		const oldestFreesInMs =
			Math.min(...recent.map((request) => request.startedAt)) + this.windowMs - now;
		// Retry-After is whole seconds rounded up; a second of slack covers the rounding and clock drift.
		if (retryAfterMs + 1000 >= oldestFreesInMs) {
			this.learnedLimit = recent.length;
			this.learnedAt = now;
		}
	}
}

const learnedPacers = new Map<string, LearnedLimitPacer>();

/**
 * One learned-limit pacer per key: execution, credential and route class for unlocks (`…|unlock`); credential
 * and service for the service's limit per API key and for job creation (`…|create`), shared by every
 * execution of this process (rateLimit.ts says which request uses which).
 */
export function learnedPacerFor(
	key: string,
	options: { limitLastsOneWindow?: boolean } = {},
): LearnedLimitPacer {
	return pacerIn(
		learnedPacers,
		key,
		() =>
			new LearnedLimitPacer(
				defaultPacing.windowMs,
				clock.now,
				options.limitLastsOneWindow ?? false,
			),
	);
}
