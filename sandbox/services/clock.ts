/** Where the sandbox's time comes from: the wall clock, or a clock a test drives (test/support/testClock.ts). */
export interface TimeSource {
	now(): number;
	sleep(ms: number): Promise<void>;
	/**
	 * A wait that a request being answered is parked on (injected latency): a driven time source may skip it
	 * while that request is in flight, since ending it is what the request waits for. Plain `sleep` elsewhere.
	 */
	delayAnswer?(ms: number): Promise<void>;
}

export const wallTime: TimeSource = {
	now: () => Date.now(),
	sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The sandbox's own time: its time source plus an offset that the control API can move forward,
 * so tests can expire keys, URLs and sources, and roll daily limits, without waiting. Rate windows,
 * expiry, job times and injected latency all read it.
 *
 * Work in progress (a v1 request being answered, a job being processed) holds the clock: a driven
 * time source moves on only while nothing holds it (`atRest`), so no wait is skipped while the sandbox works.
 */
export class SandboxClock {
	private held = 0;

	constructor(
		public offsetMs = 0,
		private readonly source: TimeSource = wallTime,
	) {}

	now(): number {
		return this.source.now() + this.offsetMs;
	}

	/** Resolves once `ms` of the sandbox's time have passed (injected latency, which parks a request). */
	async sleep(ms: number): Promise<void> {
		await (this.source.delayAnswer ? this.source.delayAnswer(ms) : this.source.sleep(ms));
	}

	advance(seconds: number): number {
		this.offsetMs += Math.round(seconds * 1000);
		return this.now();
	}

	/** Marks work in progress until the returned release is called (once; later calls do nothing). */
	hold(): () => void {
		this.held++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.held--;
		};
	}

	/** No request is being answered and no job processed. */
	get atRest(): boolean {
		return this.held === 0;
	}

	iso(ms: number | null | undefined): string | null {
		return ms === null || ms === undefined ? null : new Date(ms).toISOString();
	}
}

/** Start of the UTC day containing `ms`. */
export function startOfUtcDay(ms: number): number {
	const day = new Date(ms);
	return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
}

export function startOfUtcMonth(ms: number): number {
	const day = new Date(ms);
	return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
}

export function startOfNextUtcMonth(ms: number): number {
	const day = new Date(ms);
	return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1);
}
