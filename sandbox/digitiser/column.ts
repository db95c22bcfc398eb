import { traceContours, type Loop } from './contour';
import { abs, floor, hypot, max, min, round } from './math';
import type { RegionMap } from './regions';

/** One satin stitch's two needle holes, across the column: a point on each rail. */
export type Rung = [[number, number], [number, number]];

/** A satin column: rungs in order along its centre line; `closed` when it is a ring (the last joins the first). */
export interface Column {
	rungs: Rung[];
	closed: boolean;
}

/** Rails are resampled this far apart (pixels) before they are matched. */
const railStepPx = 1;
/** Most rail points matched per rail; a longer rail is resampled more coarsely. */
const maxRailPoints = 1200;
/** Share of rungs allowed to leave the shape (or span more than a satin may) before the column is refused. */
const outsideRungShare = 0.03;
/**
 * The same for a branch cut from a fork (`splitBranches`): rungs at its cut end cross where the
 * fork's own stitches lie.
 */
const outsideRungShareOfBranch = 0.12;
/**
 * Share of rungs allowed to span much more than the shape's width where they cross it (square
 * ends, where the rails meet along the cut, have some).
 */
const wideRungShare = 0.12;
/** Share of rungs that may leave a ragged column (see `readColumn`). */
const raggedOutsideShare = 0.25;
/** Share of the shape the rungs must sweep over: a branch the rails skip leaves the rest bare. */
const minSweptShare = 0.85;

/**
 * Finds a satin column in a region: a band (one outline, cut into two rails at the two ends of
 * its longest path) or a ring (an outer and an inner outline). The rails are matched point to
 * point so each rung crosses the shape where it is narrowest, which makes the rungs turn with
 * the shape's centre line. Returns null for shapes that are not one column (branches, several
 * holes): their rungs would leave the shape or leave parts of it bare.
 */
export function findColumn(map: RegionMap, regionId: number, maxWidthPx: number): Column | null {
	const reading = readColumn(map, regionId, maxWidthPx);
	return reading?.fit === 'column' ? reading.column : null;
}

/**
 * A region read as a column: `fit` is 'column' when it is one (`findColumn`), 'ragged' when its rungs
 * sweep over it but more of them leave it or span more than its width allows than a column's may.
 * A drawn open satin reads so: its teeth and slits make its outline ragged and its width uneven, and
 * its column is still the guide its stitches are read along.
 */
export function readColumn(
	map: RegionMap,
	regionId: number,
	maxWidthPx: number,
): { column: Column; fit: 'column' | 'ragged' } | null {
	const loops = traceContours(map, regionId, 0);
	let railA: Loop;
	let railB: Loop;
	let closed = false;
	if (loops.length === 1) {
		const ends = longestPathEnds(map, regionId);
		if (!ends) return null;
		const loop = smooth(loops[0]);
		const i = nearestIndex(loop, ends[0]);
		const j = nearestIndex(loop, ends[1]);
		if (i === j) return null;
		railA = arc(loop, i, j, 1);
		railB = arc(loop, i, j, -1);
	} else if (loops.length === 2) {
		const [outer, inner] =
			loops[0].length >= loops[1].length ? [loops[0], loops[1]] : [loops[1], loops[0]];
		const a = smooth(outer);
		let b = smooth(inner);
		if (signedArea(a) * signedArea(b) < 0) b = b.slice().reverse();
		const start = nearestIndex(b, a[0]);
		railA = [...a, a[0]];
		railB = [...b.slice(start), ...b.slice(0, start), b[start]];
		closed = true;
	} else {
		return null;
	}
	const step = max(railStepPx, (max(length(railA), length(railB)) / maxRailPoints) * 1.001);
	const a = resample(railA, step);
	const b = resample(railB, step);
	if (a.length < 2 || b.length < 2) return null;
	const pairs = matchRails(a, b);
	const rungs = pairs.map(([i, j]): Rung => [a[i], b[j]]);
	const fit = plausible(map, regionId, rungs, maxWidthPx);
	return fit ? { column: { rungs, closed }, fit } : null;
}

/**
 * Rungs at `spacingPx` along the centre line (measured between rung midpoints), interpolated
 * between the matched rail points.
 */
export function spaceRungs(column: Column, spacingPx: number): Rung[] {
	const { rungs } = column;
	const out: Rung[] = [rungs[0]];
	let carried = 0;
	for (let k = 1; k < rungs.length; k++) {
		const [p, q] = [rungs[k - 1], rungs[k]];
		const step = hypot(
			(q[0][0] + q[1][0] - p[0][0] - p[1][0]) / 2,
			(q[0][1] + q[1][1] - p[0][1] - p[1][1]) / 2,
		);
		let along = spacingPx - carried;
		while (along <= step) {
			const t = along / step;
			out.push([lerp(p[0], q[0], t), lerp(p[1], q[1], t)]);
			along += spacingPx;
		}
		carried = step - (along - spacingPx);
	}
	return out;
}

function lerp(a: [number, number], b: [number, number], t: number): [number, number] {
	return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

/**
 * The rungs stay in the shape (their middles inside it, none wider than the shape allows) and
 * together sweep over nearly all of it: a column. Ragged where they sweep over it but more leave it.
 */
function plausible(
	map: RegionMap,
	regionId: number,
	rungs: Rung[],
	maxWidthPx: number,
): 'column' | 'ragged' | null {
	const { width, height, ids, inset, regions } = map;
	let outside = 0;
	let bad = 0;
	let swept = 0;
	for (let k = 0; k < rungs.length; k++) {
		const [[ax, ay], [bx, by]] = rungs[k];
		const span = hypot(bx - ax, by - ay);
		const x = floor((ax + bx) / 2);
		const y = floor((ay + by) / 2);
		const inside = x >= 0 && y >= 0 && x < width && y < height && ids[y * width + x] === regionId;
		if (!inside || span > maxWidthPx) outside++;
		else if (span > 2.6 * inset[y * width + x] + 3) bad++;
		if (k > 0) {
			const [[cx, cy], [dx, dy]] = rungs[k - 1];
			swept += abs(quadArea(cx, cy, ax, ay, bx, by, dx, dy));
		}
	}
	if (swept < minSweptShare * regions[regionId].area) return null;
	const outsideShare = regions[regionId].branch ? outsideRungShareOfBranch : outsideRungShare;
	if (outside <= outsideShare * rungs.length && bad <= wideRungShare * rungs.length)
		return 'column';
	return outside <= raggedOutsideShare * rungs.length ? 'ragged' : null;
}

/** Area of the quadrilateral a-b-c-d (shoelace). */
function quadArea(
	ax: number,
	ay: number,
	bx: number,
	by: number,
	cx: number,
	cy: number,
	dx: number,
	dy: number,
): number {
	return (ax * by - bx * ay + (bx * cy - cx * by) + (cx * dy - dx * cy) + (dx * ay - ax * dy)) / 2;
}

/**
 * Matches two rails by dynamic time warping: a monotone pairing of their points, both ends
 * paired, that keeps the sum of squared rung lengths least.
 */
function matchRails(a: Loop, b: Loop): Array<[number, number]> {
	const n = a.length;
	const m = b.length;
	const cost = new Float64Array(n * m);
	for (let i = 0; i < n; i++) {
		for (let j = 0; j < m; j++) {
			const dx = a[i][0] - b[j][0];
			const dy = a[i][1] - b[j][1];
			const d = dx * dx + dy * dy;
			let best = 0;
			if (i > 0 || j > 0) {
				best = Infinity;
				if (i > 0) best = cost[(i - 1) * m + j];
				if (j > 0) best = min(best, cost[i * m + j - 1]);
				if (i > 0 && j > 0) best = min(best, cost[(i - 1) * m + j - 1]);
			}
			cost[i * m + j] = d + best;
		}
	}
	const pairs: Array<[number, number]> = [];
	let i = n - 1;
	let j = m - 1;
	pairs.push([i, j]);
	while (i > 0 || j > 0) {
		if (i === 0) j--;
		else if (j === 0) i--;
		else {
			const diagonal = cost[(i - 1) * m + j - 1];
			const up = cost[(i - 1) * m + j];
			const left = cost[i * m + j - 1];
			if (diagonal <= up && diagonal <= left) {
				i--;
				j--;
			} else if (up <= left) i--;
			else j--;
		}
		pairs.push([i, j]);
	}
	return pairs.reverse();
}

/**
 * The two ends of the region's longest path (a double breadth-first sweep over its pixels):
 * the tips of a band, where its rails meet.
 */
function longestPathEnds(
	map: RegionMap,
	regionId: number,
): [[number, number], [number, number]] | null {
	const region = map.regions[regionId];
	const { width, ids } = map;
	let seed = -1;
	for (let y = region.minY; y <= region.maxY && seed < 0; y++) {
		for (let x = region.minX; x <= region.maxX; x++) {
			if (ids[y * width + x] === regionId) {
				seed = y * width + x;
				break;
			}
		}
	}
	if (seed < 0) return null;
	const first = farthest(map, regionId, seed);
	const second = farthest(map, regionId, first);
	const at = (i: number): [number, number] => [(i % width) + 0.5, floor(i / width) + 0.5];
	return [at(first), at(second)];
}

/** Visit marks for `farthest`, kept between calls: a fresh array per region would cost a whole map each time. */
let marks = new Int32Array(0);
let markOf = 0;

function farthest(map: RegionMap, regionId: number, start: number): number {
	const { width, height, ids } = map;
	if (marks.length !== ids.length) {
		marks = new Int32Array(ids.length);
		markOf = 0;
	}
	const mark = ++markOf;
	marks[start] = mark;
	let frontier = [start];
	let last = start;
	while (frontier.length) {
		const next: number[] = [];
		for (const i of frontier) {
			last = i;
			const x = i % width;
			const y = (i - x) / width;
			const around = [
				x > 0 ? i - 1 : -1,
				x < width - 1 ? i + 1 : -1,
				y > 0 ? i - width : -1,
				y < height - 1 ? i + width : -1,
			];
			for (const j of around) {
				if (j >= 0 && ids[j] === regionId && marks[j] !== mark) {
					marks[j] = mark;
					next.push(j);
				}
			}
		}
		frontier = next;
	}
	return last;
}

/** The part of a closed loop from index i to index j, walking in `direction`. */
function arc(loop: Loop, i: number, j: number, direction: 1 | -1): Loop {
	const n = loop.length;
	const out: Loop = [loop[i]];
	for (let k = i; k !== j; ) {
		k = (k + direction + n) % n;
		out.push(loop[k]);
	}
	return out;
}

/** Three-point averaging, twice: takes the pixel staircase off an outline without moving it. */
function smooth(loop: Loop): Loop {
	let current = loop;
	for (let pass = 0; pass < 2; pass++) {
		const n = current.length;
		const source = current;
		current = source.map((p, k): [number, number] => {
			const a = source[(k - 1 + n) % n];
			const b = source[(k + 1) % n];
			return [(a[0] + 2 * p[0] + b[0]) / 4, (a[1] + 2 * p[1] + b[1]) / 4];
		});
	}
	return current;
}

function nearestIndex(loop: Loop, [x, y]: [number, number]): number {
	let best = 0;
	let bestDistance = Infinity;
	loop.forEach(([px, py], k) => {
		const d = (px - x) * (px - x) + (py - y) * (py - y);
		if (d < bestDistance) {
			bestDistance = d;
			best = k;
		}
	});
	return best;
}

function signedArea(loop: Loop): number {
	let sum = 0;
	for (let k = 0; k < loop.length; k++) {
		const [ax, ay] = loop[k];
		const [bx, by] = loop[(k + 1) % loop.length];
		sum += ax * by - bx * ay;
	}
	return sum / 2;
}

function length(path: Loop): number {
	let sum = 0;
	for (let k = 1; k < path.length; k++)
		sum += hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]);
	return sum;
}

/** Points `step` apart along an open path, its last point kept. */
function resample(path: Loop, step: number): Loop {
	const out: Loop = [path[0]];
	let carried = 0;
	for (let k = 1; k < path.length; k++) {
		const [ax, ay] = path[k - 1];
		const [bx, by] = path[k];
		const segment = hypot(bx - ax, by - ay);
		let along = step - carried;
		while (along <= segment) {
			out.push([ax + ((bx - ax) * along) / segment, ay + ((by - ay) * along) / segment]);
			along += step;
		}
		carried = segment - (along - step);
	}
	const last = path[path.length - 1];
	const tail = out[out.length - 1];
	if (round(hypot(last[0] - tail[0], last[1] - tail[1]) * 1000) > 0) out.push(last);
	return out;
}
