import { FieldErrors } from './errors';

/** Faults the control API injects, each a probability from 0 to 1 except the latency. */
export interface Faults {
	/** Share of v1 requests answered 429 with `Retry-After: 1` before they run. */
	rate429: number;
	/** Share of v1 requests answered 503 before they run. */
	rate5xx: number;
	/** Delay added before every v1 response. */
	latencyMs: number;
	/** Share of v1 requests whose connection is closed without an answer, before they run. */
	dropRate: number;
	/** Share of jobs that fail with `engine_error` instead of running. */
	engineFailureRate: number;
	/** Share of jobs whose engine process really exhausts its heap ceiling: the process dies and is replaced. */
	workerOutOfMemoryRate: number;
	/** While true, jobs stay queued: for testing waits, timeouts and the processing control. */
	processingPaused: boolean;
}

export const noFaults: Faults = {
	rate429: 0,
	rate5xx: 0,
	latencyMs: 0,
	dropRate: 0,
	engineFailureRate: 0,
	workerOutOfMemoryRate: 0,
	processingPaused: false,
};

/** The current faults with the given fields replaced; 422 for values out of range. */
export function mergeFaults(current: Faults, input: unknown): Faults {
	const body = (input ?? {}) as Record<string, unknown>;
	const next = { ...current };
	const errors = new FieldErrors();
	for (const field of Object.keys(noFaults) as Array<keyof Faults>) {
		const value = body[field];
		if (value === undefined) continue;
		if (field === 'processingPaused') {
			if (typeof value === 'boolean') next.processingPaused = value;
			else errors.add(field, 'The processingPaused must be true or false.');
			continue;
		}
		const max = field === 'latencyMs' ? 60000 : 1;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
			errors.add(field, `The ${field} must be a number from 0 to ${max}.`);
		} else {
			next[field as Exclude<keyof Faults, 'processingPaused'>] = value;
		}
	}
	const unknown = Object.keys(body).filter((field) => !(field in noFaults));
	if (unknown.length) errors.add('faults', `Unknown fault(s): ${unknown.join(', ')}.`);
	errors.throwIfAny();
	return next;
}
