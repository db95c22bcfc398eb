import { clock } from './clock';

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

/** The service counts a request when it arrives, a little after it started here. */
const learnedSlotSlackMs = 500;

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
	private readonly accepted: number[] = [];
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

	private inWindow(): number[] {
		const now = this.now();
		while (this.accepted.length > 0 && now - this.accepted[0] >= this.windowMs)
			this.accepted.shift();
		return this.accepted;
	}

	/** Milliseconds until another request may start (0 = now, always so until a limit is learned or a 429 paused it). */
	delayBeforeNext(): number {
		const paused = Math.max(0, this.pausedUntil - this.now());
		const recent = this.inWindow();
		const limit = this.limit;
		if (limit === undefined || recent.length < limit) return paused;
		const slotFree =
			recent[recent.length - limit] + this.windowMs + learnedSlotSlackMs - this.now();
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

	/** A request that started at `startedAt` was answered (not 429), so the service counted it. */
	recordAccepted(startedAt: number): void {
		this.accepted.push(startedAt);
		this.accepted.sort((a, b) => a - b);
	}

	/** The route answered 429 with this Retry-After (null when absent); one the node will wait out. */
	recordRefused(retryAfterMs: number | null): void {
		const recent = this.inWindow();
		if (retryAfterMs === null || recent.length === 0) return;
		const oldestFreesInMs = recent[0] + this.windowMs - this.now();
		// Retry-After is whole seconds rounded up; a second of slack covers the rounding and clock drift.
		if (retryAfterMs + 1000 >= oldestFreesInMs) {
			this.learnedLimit = recent.length;
			this.learnedAt = this.now();
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
