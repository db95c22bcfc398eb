import { spaceRungs, type Column, type Rung } from './column';
import { abs, ceil, floor, hypot, max, min, round, sqrt } from './math';
import { background } from './regions';
import type { RegionSewing } from './sewing';

/**
 * An open satin read off the artwork. A light satin (or a picture of an embroidered piece) shows its
 * stitches: slanted lines from rail to rail with bare fabric between them, touching where two meet at
 * a needle hole. Closed into one column it is sewn solid, heavier than drawn and over the gaps. Here
 * the holes on one rail are read where the drawn stitches meet it (blots of thread along it, bare
 * fabric between), the other rail's holes where the stitches from them lie on the thread, each hole is
 * then moved onto the drawn stitches, and the satin is sewn through those holes where they agree with
 * the artwork better than a closed column would.
 */

/** Step along the column's centre line at which the artwork is read, working pixels. */
const readStepPx = 0.25;
/** How far inside a rail its holes are read, mm: within the blot where two stitches meet. */
const railInsetMm = 0.1;
/** Fewest holes on the rail read for an open satin. */
const minHoles = 5;
/** Share of the rail read that must be bare fabric between holes (and at most this much more). */
const minBareShare = 0.2;
const maxBareShare = 0.8;
/** Share of the gaps between holes that must be bare fabric, not another thread. */
const fabricShare = 0.8;
/** Narrowest slit between two holes' blots along a rail, mm, and the shortest blot. */
const minSlitMm = 0.15;
const minBlotMm = 0.1;
/** Holes on one rail this far apart, mm, at the median; a satin thread 0.4 mm wide needs room. */
const minPitchMm = 0.4;
const maxPitchMm = 2.5;
/** Share of the hole spacings within half to one and a half times their median. */
const regularShare = 0.8;
/** How much more of the column the traced stitches must draw right than one solid satin would. */
const minGain = 0.01;
/** Share of a read stitch that may lie off the thread (where the drawing's edges are ragged). */
const maxStitchBare = 0.3;
/** Fewest stitch pairs in a stretch sewn open. */
const minStretch = 4;
/** Shortest stretch between open ones sewn as a closed satin, read steps (shorter ones are left). */
const minClosedSteps = 8;
/** How far along the column a stitch may slant, in the column's widths. */
const slantReach = 1.5;
/** Cost of an in-between hole per read step away from where the stitches' slant puts it, in bare points. */
const slantCost = 0.05;
/** Width a stitch draws, mm. */
const threadMm = 0.4;

/** A hole on a rail: the point, and its index among the read rungs. */
interface Hole {
	at: [number, number];
	index: number;
}

/** A stretch of a column: its rungs, and the holes of its open satin if the stretch is drawn open. */
export interface ColumnPiece {
	rungs: Rung[];
	holes?: Array<[number, number]>;
}

/**
 * A column cut into the stretches its artwork draws as an open satin (with the holes to sew them
 * through, in order, alternating rails) and those between, drawn closed; null where no stretch is
 * open. A stretch is open where the drawn stitches read from it lie on the artwork's thread, and
 * drawn a thread wide they agree with the artwork better than one solid column would.
 */
export function openSatinPieces(sewing: RegionSewing, column: Column): ColumnPiece[] | null {
	const { needle } = sewing;
	const rungs = spaceRungs(column, readStepPx);
	if (rungs.length < 8) return null;
	const slotAt = slotsOf(sewing);
	const label = sewing.map.regions[sewing.regionId].label;
	const ink: Ink = (x, y) => slotAt(x, y) === label;
	const fabric: Ink = (x, y) => slotAt(x, y) === background;
	const halfThread = needle.px(threadMm / 2);
	// Holes read on either rail with clear gaps between them (the other's stitches may run together,
	// as on a curve's inside), and two readings of the other rail's holes from them: the reading whose
	// stitches agree best with the artwork is kept, and its holes moved onto the drawn stitches.
	let best: { path: Array<[number, number]>; holes: Hole[]; agrees: number } | null = null;
	for (const side of [0, 1] as const) {
		const read = railHoles(rungs, side, ink, fabric, needle.px(railInsetMm), needle.px(1));
		if (!read) continue;
		for (const reading of [byBars, byPairs]) {
			const candidate = reading(rungs, read, (1 - side) as 0 | 1, ink);
			if (!candidate) continue;
			const agrees = agreement(rungs, candidate, ink, halfThread).open;
			if (!best || agrees > best.agrees) best = { path: candidate, holes: read, agrees };
		}
	}
	if (!best) return null;
	const { path, holes } = best;
	refine(path, ink, halfThread);
	// Stretches of holes whose stitches lie on the thread (a crossing band or a blot of thread breaks
	// the drawn stitches), each kept where it agrees with the artwork.
	const pieces: ColumnPiece[] = [];
	let cursor = 0;
	const good = (k: number) =>
		bareShare(path[2 * k], path[2 * k + 1], ink) <= maxStitchBare &&
		bareShare(path[2 * k + 1], path[2 * k + 2], ink) <= maxStitchBare;
	for (let k = 0; k < holes.length - 1; ) {
		if (!good(k)) {
			k++;
			continue;
		}
		// A lone stitch pair off the thread (a ragged drawing) does not break a stretch.
		let end = k;
		for (;;) {
			if (end + 1 < holes.length - 1 && good(end + 1)) end++;
			else if (end + 2 < holes.length - 1 && good(end + 2)) end += 2;
			else break;
		}
		const from = holes[k].index;
		const to = holes[end + 1].index;
		const stretch = path.slice(2 * k, 2 * end + 3);
		if (end - k + 1 >= minStretch) {
			const { open, solid } = agreement(rungs.slice(from, to + 1), stretch, ink, halfThread);
			if (open >= solid + minGain) {
				if (from - cursor >= minClosedSteps) pieces.push({ rungs: rungs.slice(cursor, from + 1) });
				pieces.push({ rungs: rungs.slice(from, to + 1), holes: stretch });
				cursor = to;
			}
		}
		k = end + 1;
	}
	if (pieces.length === 0) return null;
	if (rungs.length - 1 - cursor >= minClosedSteps) pieces.push({ rungs: rungs.slice(cursor) });
	return pieces;
}

type Ink = (x: number, y: number) => boolean;

/** The thread slot at a point: at the artwork's own pixels where it has finer ones. */
function slotsOf(sewing: RegionSewing): (x: number, y: number) => number {
	const { fine, regions, width, height, ids } = sewing.map;
	if (fine) return (x, y) => fine.at(x, y);
	return (x, y) => {
		const px = floor(x);
		const py = floor(y);
		const inMap = px >= 0 && py >= 0 && px < width && py < height;
		return inMap ? regions[ids[py * width + px]].label : background;
	};
}

/**
 * Holes along one rail: the middles of the runs of ink just inside it, when they come at a regular
 * pitch with bare fabric between them.
 */
function railHoles(
	rungs: Rung[],
	side: 0 | 1,
	ink: Ink,
	fabric: Ink,
	insetPx: number,
	mmPx: number,
): Hole[] | null {
	const along: number[] = [];
	const inked: boolean[] = [];
	let gaps = 0;
	let onFabric = 0;
	let travelled = 0;
	for (let i = 0; i < rungs.length; i++) {
		const [x, y] = inside(rungs[i], side, insetPx);
		if (i > 0) {
			const [px, py] = inside(rungs[i - 1], side, insetPx);
			travelled += hypot(x - px, y - py);
		}
		along.push(travelled);
		inked.push(ink(x, y));
		if (!inked[i]) {
			gaps++;
			if (fabric(x, y)) onFabric++;
		}
	}
	// Between the stitches lies bare fabric; another thread there is a texture of two colours.
	if (onFabric < fabricShare * gaps) return null;
	// Runs of ink along the rail; a slit narrower than `minSlitMm` is a ragged edge within one hole's
	// blot, a run shorter than `minBlotMm` a speck.
	const found: Array<[number, number]> = [];
	for (let i = 0; i < rungs.length; ) {
		let j = i;
		while (j + 1 < rungs.length && inked[j + 1] === inked[i]) j++;
		if (inked[i]) {
			const last = found[found.length - 1];
			if (last && along[i] - along[last[1]] < minSlitMm * mmPx) last[1] = j;
			else found.push([i, j]);
		}
		i = j + 1;
	}
	const runs = found.filter(([i, j]) => along[j] - along[i] >= minBlotMm * mmPx);
	let bare = 0;
	for (let k = 1; k < runs.length; k++) bare += along[runs[k][0]] - along[runs[k - 1][1]];
	if (runs.length < minHoles) return null;
	const span = along[runs[runs.length - 1][1]] - along[runs[0][0]];
	if (span <= 0 || bare < minBareShare * span || bare > maxBareShare * span) return null;
	const middles = runs.map(([i, j]) => (along[i] + along[j]) / 2);
	const pitches = middles.slice(1).map((m, k) => m - middles[k]);
	const sorted = pitches.slice().sort((a, b) => a - b);
	const median = sorted[floor(sorted.length / 2)];
	if (median < minPitchMm * mmPx || median > maxPitchMm * mmPx) return null;
	const regular = pitches.filter((p) => p >= 0.5 * median && p <= 1.5 * median).length;
	if (regular < regularShare * pitches.length) return null;
	return middles.map((m, k) => {
		let index = runs[k][0];
		while (index < runs[k][1] && along[index + 1] <= m) index++;
		return { at: rungs[index][side], index };
	});
}

/** A rung's end on `side`, moved `px` along it into the column. */
function inside(rung: Rung, side: 0 | 1, px: number): [number, number] {
	const [ax, ay] = rung[side];
	const [bx, by] = rung[1 - side];
	const length = hypot(bx - ax, by - ay) || 1;
	const t = min(px / length, 0.5);
	return [ax + (bx - ax) * t, ay + (by - ay) * t];
}

type Reading = (
	rungs: Rung[],
	holes: Hole[],
	other: 0 | 1,
	ink: Ink,
) => Array<[number, number]> | null;

/** How far along the column the stitches from a hole may reach, in read steps: they slant. */
function reachAt(rungs: Rung[], index: number): number {
	const [a, b] = rungs[index];
	return ceil((slantReach * hypot(b[0] - a[0], b[1] - a[1])) / readStepPx);
}

/**
 * Each hole's two stitches run out along one drawn bar: the stitch from it that crosses the least bare
 * fabric finds the bar's far end, and two bars meet halfway between their far ends.
 */
const byBars: Reading = (rungs, holes, other, ink) => {
	const ends: number[] = [];
	let slant = 0;
	for (const hole of holes) {
		const reach = reachAt(rungs, hole.index);
		const lo = max(0, hole.index - reach);
		const hi = min(rungs.length - 1, hole.index + reach);
		const end = leastBare(rungs, other, [hole], lo, hi, hole.index + slant, ink);
		slant = end - hole.index;
		ends.push(end);
	}
	const path: Array<[number, number]> = [holes[0].at];
	let previous = -1;
	for (let k = 1; k < holes.length; k++) {
		const between = max(previous + 1, round((ends[k - 1] + ends[k]) / 2));
		if (between >= rungs.length) return null;
		previous = between;
		path.push(rungs[between][other]);
		path.push(holes[k].at);
	}
	return path;
};

/** The hole between two holes where the stitch to it and the stitch back cross the least bare fabric. */
const byPairs: Reading = (rungs, holes, other, ink) => {
	const path: Array<[number, number]> = [holes[0].at];
	let previous = -1;
	let slant = 0;
	for (let k = 1; k < holes.length; k++) {
		const reach = reachAt(rungs, holes[k].index);
		const lo = max(previous + 1, holes[k - 1].index - reach);
		const hi = min(rungs.length - 1, holes[k].index + reach);
		if (lo > hi) return null;
		const middle = (holes[k - 1].index + holes[k].index) / 2;
		previous = leastBare(rungs, other, [holes[k - 1], holes[k]], lo, hi, middle + slant, ink);
		slant = previous - middle;
		path.push(rungs[previous][other]);
		path.push(holes[k].at);
	}
	return path;
};

/**
 * The other rail's point, between `lo` and `hi`, that stitches from `from` reach over the least bare
 * fabric; of such points the one nearest `predicted` (the slant of the stitch before: a satin's
 * stitches lie side by side).
 */
function leastBare(
	rungs: Rung[],
	other: 0 | 1,
	from: Hole[],
	lo: number,
	hi: number,
	predicted: number,
	ink: Ink,
): number {
	let best = max(lo, min(hi, round(predicted)));
	let bestCost = Infinity;
	for (let i = lo; i <= hi; i++) {
		// A point whose cost so far already reaches the best is passed over without reading further:
		// its stitches' bare points only add to it.
		let cost = slantCost * abs(i - predicted);
		for (const hole of from) {
			if (cost >= bestCost) break;
			cost += bareAlong(hole.at, rungs[i][other], ink, bestCost - cost);
		}
		if (cost < bestCost) {
			bestCost = cost;
			best = i;
		}
	}
	return best;
}

/** Share of a segment's points off the ink. */
function bareShare(a: [number, number], b: [number, number], ink: Ink): number {
	const steps = max(1, ceil(hypot(b[0] - a[0], b[1] - a[1]) / readStepPx));
	return bareAlong(a, b, ink) / (steps + 1);
}

/**
 * Points of a segment off the ink, read every quarter pixel; the reading stops once the count is a
 * point past `enough` (the caller needs to know only that it is at least that many).
 */
function bareAlong(
	[ax, ay]: [number, number],
	[bx, by]: [number, number],
	ink: Ink,
	enough = Infinity,
): number {
	const steps = max(1, ceil(hypot(bx - ax, by - ay) / readStepPx));
	let bare = 0;
	for (let s = 0; s <= steps; s++) {
		if (!ink(ax + ((bx - ax) * s) / steps, ay + ((by - ay) * s) / steps)) {
			bare++;
			if (bare > enough + 1) return bare;
		}
	}
	return bare;
}

/**
 * How well the traced stitches, each drawn a thread wide, agree with the artwork over the column
 * (intersection over union of their ink), against one solid column (the artwork's share of ink).
 */
function agreement(
	rungs: Rung[],
	path: Array<[number, number]>,
	ink: Ink,
	halfThreadPx: number,
): { open: number; solid: number } {
	const drawn = drawPath(path, halfThreadPx);
	let inkCount = 0;
	let total = 0;
	let both = 0;
	let either = 0;
	for (let i = 0; i < rungs.length; i += 2) {
		const [[ax, ay], [bx, by]] = rungs[i];
		const steps = max(1, ceil(hypot(bx - ax, by - ay) / readStepPx));
		for (let s = 0; s <= steps; s++) {
			const x = ax + ((bx - ax) * s) / steps;
			const y = ay + ((by - ay) * s) / steps;
			const onPath = drawn(x, y);
			const inked = ink(x, y);
			total++;
			if (inked) inkCount++;
			if (onPath && inked) both++;
			if (onPath || inked) either++;
		}
	}
	return { open: either ? both / either : 0, solid: total ? inkCount / total : 0 };
}

/**
 * The path drawn a thread wide on a grid of read steps over its box: a test of whether a point lies
 * under its thread.
 */
function drawPath(
	path: Array<[number, number]>,
	halfThreadPx: number,
): (x: number, y: number) => boolean {
	let x0 = Infinity;
	let y0 = Infinity;
	let x1 = -Infinity;
	let y1 = -Infinity;
	for (const [x, y] of path) {
		x0 = min(x0, x);
		y0 = min(y0, y);
		x1 = max(x1, x);
		y1 = max(y1, y);
	}
	x0 -= halfThreadPx + 1;
	y0 -= halfThreadPx + 1;
	const cell = readStepPx;
	const w = ceil((x1 - x0 + halfThreadPx + 1) / cell) + 1;
	const h = ceil((y1 - y0 + halfThreadPx + 1) / cell) + 1;
	const grid = new Uint8Array(w * h);
	const r = ceil(halfThreadPx / cell);
	const r2 = (halfThreadPx / cell) * (halfThreadPx / cell);
	for (let k = 1; k < path.length; k++) {
		const [ax, ay] = path[k - 1];
		const [bx, by] = path[k];
		const steps = max(1, ceil(hypot(bx - ax, by - ay) / cell));
		for (let s = 0; s <= steps; s++) {
			const cx = (ax + ((bx - ax) * s) / steps - x0) / cell;
			const cy = (ay + ((by - ay) * s) / steps - y0) / cell;
			const gx = round(cx);
			const gy = round(cy);
			for (let y = max(0, gy - r); y <= min(h - 1, gy + r); y++) {
				const across = (y - cy) * (y - cy);
				if (across > r2) continue;
				// The disc's cells on this row are one run: found from the square root, then settled
				// by the test itself, so the run is exactly the cells the test admits.
				const reach = sqrt(r2 - across);
				let left = max(gx - r, ceil(cx - reach));
				let right = min(gx + r, floor(cx + reach));
				while (left > gx - r && inDisc(left - 1, cx, across, r2)) left--;
				while (left <= right && !inDisc(left, cx, across, r2)) left++;
				while (right < gx + r && inDisc(right + 1, cx, across, r2)) right++;
				while (right >= left && !inDisc(right, cx, across, r2)) right--;
				left = max(0, left);
				right = min(w - 1, right);
				for (let k = y * w + left; k <= y * w + right; k++) grid[k] = 1;
			}
		}
	}
	return (x, y) => {
		const gx = round((x - x0) / cell);
		const gy = round((y - y0) / cell);
		return gx >= 0 && gy >= 0 && gx < w && gy < h && grid[gy * w + gx] === 1;
	};
}

/** Whether cell `x` of a row lies in a disc round `cx` (`across`: the row's squared distance). */
function inDisc(x: number, cx: number, across: number, r2: number): boolean {
	return (x - cx) * (x - cx) + across <= r2;
}

/** Step by which `refine` moves a hole, working pixels. */
const refineStepPx = 0.25;
/** Rounds of `refine` over every hole. */
const refineRounds = 4;

/**
 * Moves each hole, a quarter pixel at a time, to where the two stitches through it lie most on ink:
 * the holes read off the rails are a pixel or so out, and on a drawn stitch 0.4 mm wide a pixel is much.
 */
function refine(path: Array<[number, number]>, ink: Ink, halfThreadPx: number): void {
	// The neighbours each hole last stayed put beside: while they have not moved, it stays again.
	const settledBefore: Array<[number, number] | null | undefined> = [];
	const settledAfter: Array<[number, number] | null | undefined> = [];
	for (let round = 0; round < refineRounds; round++) {
		let moved = false;
		for (let k = 0; k < path.length; k++) {
			const before = k > 0 ? path[k - 1] : null;
			const after = k + 1 < path.length ? path[k + 1] : null;
			if (settledBefore[k] === before && settledAfter[k] === after) continue;
			const score = (p: [number, number]) =>
				(before ? strokeInk(before, p, ink, halfThreadPx) : 0) +
				(after ? strokeInk(p, after, ink, halfThreadPx) : 0);
			let best = path[k];
			let bestScore = score(best);
			for (const [dx, dy] of around) {
				const candidate: [number, number] = [
					path[k][0] + dx * refineStepPx,
					path[k][1] + dy * refineStepPx,
				];
				const value = score(candidate);
				if (value > bestScore + 1e-9) {
					bestScore = value;
					best = candidate;
				}
			}
			if (best !== path[k]) {
				path[k] = best;
				moved = true;
				settledBefore[k] = settledAfter[k] = undefined;
			} else {
				settledBefore[k] = before;
				settledAfter[k] = after;
			}
		}
		if (!moved) return;
	}
}

const around: Array<[number, number]> = [
	[1, 0],
	[-1, 0],
	[0, 1],
	[0, -1],
	[1, 1],
	[1, -1],
	[-1, 1],
	[-1, -1],
];

/** Step along a stitch at which `strokeInk` reads the artwork, working pixels. */
const strokeStepPx = 0.5;

/** Ink minus bare fabric under a stitch drawn a thread wide, read on five lines along it. */
function strokeInk(
	[ax, ay]: [number, number],
	[bx, by]: [number, number],
	ink: Ink,
	halfThreadPx: number,
): number {
	const length = hypot(bx - ax, by - ay);
	if (length === 0) return 0;
	const nx = (-(by - ay) / length) * halfThreadPx;
	const ny = ((bx - ax) / length) * halfThreadPx;
	const steps = max(1, ceil(length / strokeStepPx));
	let sum = 0;
	for (let s = 0; s <= steps; s++) {
		const x = ax + ((bx - ax) * s) / steps;
		const y = ay + ((by - ay) * s) / steps;
		for (const t of [-0.9, -0.45, 0, 0.45, 0.9]) sum += ink(x + nx * t, y + ny * t) ? 1 : -1;
	}
	return sum;
}
