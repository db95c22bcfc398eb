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
