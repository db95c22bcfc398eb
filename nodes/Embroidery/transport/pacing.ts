import { sleep } from 'n8n-workflow';

/** The service allows 60 requests a minute per key; a margin keeps clock skew from tipping it over. */
export const defaultPacing = { limit: 55, windowMs: 60_000 };

/** A sliding-window pacer: at most `limit` request starts in any `windowMs`. */
export class RequestPacer {
	private readonly starts: number[] = [];

	constructor(
		readonly limit: number,
		readonly windowMs: number,
		private readonly now: () => number = Date.now,
	) {}

	/** Milliseconds until another request may start (0 = now). */
	delayBeforeNext(): number {
		const now = this.now();
		while (this.starts.length > 0 && now - this.starts[0] >= this.windowMs) this.starts.shift();
		if (this.starts.length < this.limit) return 0;
		return this.starts[0] + this.windowMs - now;
	}

	async waitForTurn(signal?: AbortSignal): Promise<void> {
		for (let delay = this.delayBeforeNext(); delay > 0; delay = this.delayBeforeNext()) {
			await sleep(delay, signal);
		}
		this.starts.push(this.now());
	}

	/** No request started within the window. */
	get idle(): boolean {
		const last = this.starts[this.starts.length - 1];
		return last === undefined || this.now() - last > this.windowMs;
	}
}

/** The pacer of `key`, made when first asked for; pacers of other keys that went idle are dropped so the map stays small. */
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
 */
export class LearnedLimitPacer {
	private readonly accepted: number[] = [];
	private learnedLimit: number | undefined;

	constructor(
		readonly windowMs: number,
		private readonly now: () => number = Date.now,
	) {}

	get limit(): number | undefined {
		return this.learnedLimit;
	}

	private inWindow(): number[] {
		const now = this.now();
		while (this.accepted.length > 0 && now - this.accepted[0] >= this.windowMs) this.accepted.shift();
		return this.accepted;
	}

	/** Milliseconds until another request may start (0 = now, always so until a limit is learned). */
	delayBeforeNext(): number {
		const recent = this.inWindow();
		if (this.learnedLimit === undefined || recent.length < this.learnedLimit) return 0;
		return recent[recent.length - this.learnedLimit] + this.windowMs + learnedSlotSlackMs - this.now();
	}

	async waitForTurn(signal?: AbortSignal): Promise<void> {
		for (let delay = this.delayBeforeNext(); delay > 0; delay = this.delayBeforeNext()) {
			await sleep(delay, signal);
		}
	}

	get idle(): boolean {
		return this.inWindow().length === 0;
	}

	/** A request that started at `startedAt` was answered (not 429), so the service counted it. */
	recordAccepted(startedAt: number): void {
		this.accepted.push(startedAt);
		this.accepted.sort((a, b) => a - b);
	}

	/** The route answered 429 with this Retry-After (null when absent). */
	recordRefused(retryAfterMs: number | null): void {
		const recent = this.inWindow();
		if (retryAfterMs === null || recent.length === 0) return;
		const oldestFreesInMs = recent[0] + this.windowMs - this.now();
		// Retry-After is whole seconds rounded up; a second of slack covers the rounding and clock drift.
		if (retryAfterMs + 1000 >= oldestFreesInMs) this.learnedLimit = recent.length;
	}
}

const learnedPacers = new Map<string, LearnedLimitPacer>();

/** One learned-limit pacer per execution, credential and route class (say `unlock`), like pacerFor. */
export function learnedPacerFor(key: string): LearnedLimitPacer {
	return pacerIn(learnedPacers, key, () => new LearnedLimitPacer(defaultPacing.windowMs));
}
