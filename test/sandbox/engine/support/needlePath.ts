/**
 * Where a design puts the needle, as a list to compare readings of different formats by: every place
 * it stitches and every place a move lands, in order, and each colour change. How a format splits a
 * move, whether it adds a zero-length stitch where a move lands, and moves after the last stitch (which
 * sew nothing) do not show.
 */
import type { Pattern } from '../../../../sandbox/engine/pattern';
import { patternEvents, type NeedleEvent } from './referenceDecoding';

export type NeedlePoint = { x: number; y: number } | 'colour change';

export function needlePath(events: NeedleEvent[]): NeedlePoint[] {
	const path: NeedlePoint[] = [];
	let landing: { x: number; y: number } | null = null;
	const visit = (point: NeedlePoint) => {
		const last = path[path.length - 1];
		const same =
			typeof point === 'string' || typeof last !== 'object'
				? point === last
				: point.x === last.x && point.y === last.y;
		if (!same) path.push(point);
	};
	for (const event of events) {
		if (event.kind === 'move') {
			landing = { x: event.x, y: event.y };
			continue;
		}
		if (event.kind !== 'stitch') {
			visit('colour change');
			continue;
		}
		if (landing) visit(landing);
		landing = null;
		visit({ x: event.x, y: event.y });
	}
	return path;
}

/** Points in one list are matched with points at most this far away in the other list's order. */
const band = 100;

/**
 * How many of `expected`'s points `actual` visits in the same order, within `tolerance` per axis (their
 * longest common subsequence, where the two lists stay within `band` places of each other): a point one
 * reading adds or leaves out costs that point, not every point after it.
 */
export function pointsMatched(
	expected: NeedlePoint[],
	actual: NeedlePoint[],
	tolerance: number,
): number {
	const same = (a: NeedlePoint, b: NeedlePoint) =>
		typeof a === 'string' || typeof b === 'string'
			? a === b
			: Math.abs(a.x - b.x) <= tolerance && Math.abs(a.y - b.y) <= tolerance;
	let previous = new Int32Array(actual.length + 2);
	let current = new Int32Array(actual.length + 2);
	for (let i = 1; i <= expected.length; i++) {
		const low = Math.max(1, i - band);
		const high = Math.min(actual.length, i + band);
		current[low - 1] = 0;
		for (let j = low; j <= high; j++) {
			current[j] = same(expected[i - 1], actual[j - 1])
				? previous[j - 1] + 1
				: Math.max(previous[j], current[j - 1]);
		}
		current[high + 1] = 0;
		[previous, current] = [current, previous];
	}
	const last = Math.min(actual.length, expected.length + band);
	return expected.length === 0 ? 0 : Math.max(...previous.subarray(0, last + 1));
}

/**
 * `events` moved as a whole so that their first stitch lies on `reference`'s first stitch: for a file
 * that holds the same design around another origin (Star.phc and Star.SEW against Star.DST).
 */
export function alignedTo(events: NeedleEvent[], reference: NeedleEvent[]): NeedleEvent[] {
	const start = events.find((event) => event.kind === 'stitch');
	const target = reference.find((event) => event.kind === 'stitch');
	if (!start || !target) return events;
	const dx = target.x - start.x;
	const dy = target.y - start.y;
	return events.map((event) => ({ ...event, x: event.x + dx, y: event.y + dy }));
}

/**
 * The design's needle path as steps: each needle point as its offset from the one before, and each colour
 * change. A byte changed in a relative format moves everything after it; as steps, that costs one point.
 */
export function stepsOf(pattern: Pattern): NeedlePoint[] {
	const steps: NeedlePoint[] = [];
	let x = 0;
	let y = 0;
	for (const point of needlePath(patternEvents(pattern))) {
		if (typeof point === 'string') steps.push(point);
		else {
			steps.push({ x: point.x - x, y: point.y - y });
			x = point.x;
			y = point.y;
		}
	}
	return steps;
}

/** The share of `source` that `result` holds; for a cut reading, the share of its own steps found in `source`. */
export function shareOf(source: NeedlePoint[], result: NeedlePoint[], cut: boolean): number {
	if (cut) {
		const start = source.slice(0, result.length);
		return result.length === 0 ? 0 : pointsMatched(start, result, 0) / result.length;
	}
	const longer = Math.max(source.length, result.length);
	return longer === 0 ? 0 : pointsMatched(source, result, 0) / longer;
}
