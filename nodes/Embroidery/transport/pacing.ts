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

	get lastStart(): number | undefined {
		return this.starts[this.starts.length - 1];
	}
}

const pacers = new Map<string, RequestPacer>();

/**
 * One pacer per execution and credential, shared by every request of that execution
 * (both nodes, all items); idle pacers are dropped so the map stays small.
 */
export function pacerFor(key: string): RequestPacer {
	const now = Date.now();
	for (const [existingKey, pacer] of pacers) {
		const last = pacer.lastStart;
		if (existingKey !== key && (last === undefined || now - last > pacer.windowMs)) {
			pacers.delete(existingKey);
		}
	}
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new RequestPacer(defaultPacing.limit, defaultPacing.windowMs);
		pacers.set(key, pacer);
	}
	return pacer;
}

/**
 * Pacing for routes the service limits more tightly than it publishes (unlocks: "a tighter billing-action
 * limit"). Nothing is held back until the route answers 429; then the limit is learned as the number of this
 * pacer's requests the service accepted in the window, and later requests wait for a free slot instead of
 * being refused. A 429 whose Retry-After is shorter than the oldest of those requests' remaining time in the
 * window cannot be that limit (the service would count them), so it teaches nothing.
 */
const learnedSlotSlackMs = 500;

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
		// The service counts a request when it arrives, a little after it started here.
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
	for (const [existingKey, existing] of learnedPacers) {
		if (existingKey !== key && existing.idle) learnedPacers.delete(existingKey);
	}
	let pacer = learnedPacers.get(key);
	if (!pacer) {
		pacer = new LearnedLimitPacer(defaultPacing.windowMs);
		learnedPacers.set(key, pacer);
	}
	return pacer;
}
