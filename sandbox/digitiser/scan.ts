import type { RegionMap } from './regions';
import type { Underlap } from './underlap';
import { abs, ceil, cos, floor, hypot, max, min, sin } from './math';

/** One stretch of a scan line inside a region, in the rotated frame (u along the line, v across). */
export interface Span {
	u0: number;
	u1: number;
	v: number;
	/** Global row number (v / spacing), used to stagger needle holes from row to row. */
	row: number;
	sewn: boolean;
}

/** A direction of scan lines: unit vector along the rows. */
export interface ScanFrame {
	dx: number;
	dy: number;
}

export function frameAt(angle: number): ScanFrame {
	return { dx: cos(angle), dy: sin(angle) };
}

/** Pixel coordinates of a point of the rotated frame. */
export function toPixel(frame: ScanFrame, u: number, v: number): [number, number] {
	return [u * frame.dx - v * frame.dy, u * frame.dy + v * frame.dx];
}

const sampleStep = 0.5;

/**
 * Cuts a region into parallel scan lines `spacing` pixels apart and returns, row by row,
 * the stretches that lie inside it at least `insetPx` from its edge, or, given `within`, the
 * stretches inside that (the region and the band of its neighbours it may run under). Row `k` lies
 * at `(k + phase) * spacing` across the frame.
 */
export function scanRegion(
	map: RegionMap,
	regionId: number,
	frame: ScanFrame,
	spacing: number,
	insetPx: number,
	within?: Underlap,
	phase = 0.5,
): Span[][] {
	const region = within ?? map.regions[regionId];
	const { width, ids, inset } = map;
	const corners: Array<[number, number]> = [
		[region.minX, region.minY],
		[region.maxX + 1, region.minY],
		[region.minX, region.maxY + 1],
		[region.maxX + 1, region.maxY + 1],
	];
	let uMin = Infinity;
	let uMax = -Infinity;
	let vMin = Infinity;
	let vMax = -Infinity;
	for (const [x, y] of corners) {
		const u = x * frame.dx + y * frame.dy;
		const v = -x * frame.dy + y * frame.dx;
		uMin = min(uMin, u);
		uMax = max(uMax, u);
		vMin = min(vMin, v);
		vMax = max(vMax, v);
	}
	const rows: Span[][] = [];
	const firstRow = ceil(vMin / spacing - phase);
	const inside = (u: number, v: number) => {
		const x = floor(u * frame.dx - v * frame.dy);
		const y = floor(u * frame.dy + v * frame.dx);
		if (x < region.minX || x > region.maxX || y < region.minY || y > region.maxY) return false;
		if (within)
			return (
				within.mask[(y - region.minY) * (region.maxX - region.minX + 1) + x - region.minX] === 1
			);
		const i = y * width + x;
		return ids[i] === regionId && inset[i] >= insetPx;
	};
	for (let row = firstRow; (row + phase) * spacing <= vMax; row++) {
		const v = (row + phase) * spacing;
		const spans: Span[] = [];
		let open = false;
		let start = 0;
		// Where this row crosses the region's box (a sample wider on each side): no sample outside it is inside.
		let uLo = uMin;
		let uHi = uMax;
		const crossing = (d: number, offset: number, lo: number, hi: number) => {
			if (abs(d) < 1e-9) {
				if (offset < lo - 1 || offset > hi + 1) uHi = -Infinity;
				return;
			}
			const a = (lo - offset) / d;
			const b = (hi - offset) / d;
			uLo = max(uLo, min(a, b) - 2 * sampleStep);
			uHi = min(uHi, max(a, b) + 2 * sampleStep);
		};
		crossing(frame.dx, -v * frame.dy, region.minX, region.maxX + 1);
		crossing(frame.dy, v * frame.dx, region.minY, region.maxY + 1);
		let u = uMin;
		for (; u <= uMax; u += sampleStep) {
			if (u >= uLo && u <= uHi && inside(u, v)) {
				if (!open) {
					open = true;
					start = u;
				}
			} else if (open) {
				spans.push({ u0: start - sampleStep / 2, u1: u - sampleStep / 2, v, row, sewn: false });
				open = false;
			}
		}
		if (open)
			spans.push({ u0: start - sampleStep / 2, u1: u - sampleStep / 2, v, row, sewn: false });
		if (spans.length) rows.push(spans);
	}
	return rows;
}

/**
 * Drops spans shorter than `px`: where a row runs almost along a stepped edge it grazes the
 * steps in slivers, each of which would be sewn (and travelled to) on its own.
 */
export function dropSlivers(rows: Span[][], px: number): Span[][] {
	return rows
		.map((row) => row.filter((span) => span.u1 - span.u0 >= px))
		.filter((row) => row.length > 0);
}

/** Lengthens every span by `px` at both ends (pull compensation), in place. */
export function lengthenSpans(rows: Span[][], px: number): Span[][] {
	for (const row of rows) {
		for (const span of row) {
			span.u0 -= px;
			span.u1 += px;
		}
	}
	return rows;
}

/** Where the next section starts: its first span, that span's scan line, and the end sewn first. */
export interface SectionStart {
	row: number;
	span: Span;
	at: [number, number];
}

/**
 * Orders the spans into sections: runs of touching spans on consecutive rows that can be
 * sewn back and forth without lifting the needle. A section starts at an end of such a run
 * (a span with nothing unsewn touching it on one side), the one nearest the needle, so a
 * convex shape is one section instead of two halves sewn from the middle out.
 */
export function nextSection(
	rows: Span[][],
	frame: ScanFrame,
	from: [number, number],
): Span[] | null {
	const start = sectionStart(rows, frame, from);
	return start && takeSection(rows, start);
}

/** The start of the next section (see `nextSection`): the end of a run nearest `from`. */
export function sectionStart(
	rows: Span[][],
	frame: ScanFrame,
	from: [number, number],
): SectionStart | null {
	let best: SectionStart | null = null;
	let bestDistance = Infinity;
	let bestIsEnd = false;
	eachStart(rows, frame, (start, isEnd) => {
		const d = hypot(start.at[0] - from[0], start.at[1] - from[1]);
		const better = isEnd === bestIsEnd ? d < bestDistance : isEnd;
		if (better) {
			bestDistance = d;
			best = start;
			bestIsEnd = isEnd;
		}
	});
	return best;
}

/** Every place a section could start at the end of a run of rows, in the scan's order. */
export function runEnds(rows: Span[][], frame: ScanFrame): SectionStart[] {
	const ends: SectionStart[] = [];
	eachStart(rows, frame, (start, isEnd) => {
		if (isEnd) ends.push(start);
	});
	return ends;
}

/**
 * Calls `visit` with both ends of every unsewn span, in the scan's order, and whether the span
 * ends a run of rows (nothing unsewn touches it on one side).
 */
function eachStart(
	rows: Span[][],
	frame: ScanFrame,
	visit: (start: SectionStart, isEnd: boolean) => void,
): void {
	// Asked of every unsewn span for every section, so it makes no list.
	const touchesAny = (r: number, span: Span, direction: number) =>
		rowOver(rows, r, span, direction).some((s) => touchesUnsewn(s, span));
	for (let r = 0; r < rows.length; r++) {
		for (const span of rows[r]) {
			if (span.sewn) continue;
			const isEnd = !touchesAny(r, span, -1) || !touchesAny(r, span, 1);
			for (const u of [span.u0, span.u1])
				visit({ row: r, span, at: toPixel(frame, u, span.v) }, isEnd);
		}
	}
}

/** Marks the spans of the section that starts at `start` sewn, and returns them in order. */
export function takeSection(rows: Span[][], { row, span }: SectionStart): Span[] {
	const touching = (r: number, current: Span, direction: number) =>
		rowOver(rows, r, current, direction).filter((s) => touchesUnsewn(s, current));
	const section: Span[] = [span];
	span.sewn = true;
	const direction = touching(row, span, 1).length || !touching(row, span, -1).length ? 1 : -1;
	let current: Span = span;
	let r = row;
	for (;;) {
		const candidates = touching(r, current, direction);
		if (!candidates.length) break;
		// Prefer the span that overlaps most: it continues the same part of the shape.
		candidates.sort((a, b) => overlap(b, current) - overlap(a, current));
		current = candidates[0];
		current.sewn = true;
		section.push(current);
		r += direction;
	}
	return section;
}

const noSpans: Span[] = [];

/** The spans of the scan line one row over from `span` (at `rows[r]`), `direction` +1 or -1. */
function rowOver(rows: Span[][], r: number, span: Span, direction: number): Span[] {
	const next = rows[r + direction];
	return next && next[0].row === span.row + direction ? next : noSpans;
}

/** True when `s`, on the next scan line, is not sewn yet and touches `span` along the rows. */
function touchesUnsewn(s: Span, span: Span): boolean {
	return !s.sewn && s.u0 < span.u1 && s.u1 > span.u0;
}

function overlap(a: Span, b: Span): number {
	return min(a.u1, b.u1) - max(a.u0, b.u0);
}
