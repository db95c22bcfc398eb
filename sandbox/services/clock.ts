/**
 * The sandbox's own time: real time plus an offset that the control API can move forward,
 * so tests can expire keys, URLs and sources, and roll daily limits, without waiting.
 */
export class SandboxClock {
	constructor(public offsetMs = 0) {}

	now(): number {
		return Date.now() + this.offsetMs;
	}

	advance(seconds: number): number {
		this.offsetMs += Math.round(seconds * 1000);
		return this.now();
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
