import { readColumn, spaceRungs, type Column, type Rung } from './column';
import { openSatinPieces, type ColumnPiece } from './opensatin';
import { floor, hypot, max, min, PI } from './math';
import { principalAxis, type RegionMap } from './regions';
import { frameAt, lengthenSpans, scanRegion, toPixel, type ScanFrame, type Span } from './scan';
import { pullCompensationMm, sewSections, type Density, type RegionSewing } from './sewing';

/** Widest column sewn as satin: beyond it the floats are loose enough to snag. */
export const satinMaxWidthMm = 8;
/**
 * Half a thread's width: a satin stitch's thread lies about 0.4 mm wide and wraps round its
 * needle hole, so the column covers that much past its holes. The holes go this far inside the
 * drawn edge, then out again by the pull compensation, so the sewn column covers the drawn
 * width plus the compensation, not plus a thread as well.
 */
export const halfThreadMm = 0.2;
/** Longest single satin stitch; a wider column is split in two (a split satin). */
const satinStitchMaxMm = 7;
/** Rungs shorter than this (at a band's pointed tips) are left out: the thread beside them covers them. */
const shortestRungMm = 0.3;
/** Centre-walk underlay stitch length. */
const centreWalkMm = 2;
/** Columns at least this wide get a centre-walk underlay. */
const underlayMinWidthMm = 1.2;
/**
 * Columns at least this wide get an edge walk and a zigzag underlay instead, which hold the
 * fabric under the whole width and lift the satin.
 */
const zigzagMinWidthMm = 2.5;
/** Zigzag underlay: one stitch across every this many millimetres along the column. */
const zigzagStepMm = 1.8;
/** The zigzag and edge-walk underlay stay this far inside the column's edges. */
const underlayInsetMm = 0.4;

/**
 * Satin column that turns with the shape: when the region is one column (a band, a stroke of a
 * letter, a ring) its two edges are matched point to point and the stitches cross from one to the
 * other; a centre-walk underlay goes out along the middle and the satin comes back over it.
 * Returns false when the region is not one column, so the caller can sew it another way.
 */
export function sewColumnSatin(sewing: RegionSewing, density: Density): boolean {
	const { needle, map, regionId } = sewing;
	const reading = readColumn(map, regionId, needle.px(satinMaxWidthMm + 1));
	if (!reading) return false;
	const { column, fit } = reading;
	const pieces = openPiecesOf(sewing, column);
	// Through a ragged column closed stretches' rungs may leave the shape: mostly open, or filled.
	if (pieces && (fit === 'column' || openRungShare(pieces) >= minOpenShareOfRagged)) {
		for (const piece of pieces) {
			if (piece.holes) sewOpenSatin(sewing, piece.rungs, piece.holes, density);
			else sewColumn(sewing, { rungs: piece.rungs, closed: false }, density);
		}
		return true;
	}
	if (fit !== 'column') return false;
	sewColumn(sewing, column, density);
	return true;
}

/**
 * Each region's open-satin reading, kept for the map: the artwork does not change when the design is
 * planned again at a corrected scale (see `sewAtWidth`), and reading it is the costly part.
 */
const openReadings = new WeakMap<RegionMap, Map<number, ColumnPiece[] | null>>();

function openPiecesOf(sewing: RegionSewing, column: Column): ColumnPiece[] | null {
	let readings = openReadings.get(sewing.map);
	if (!readings) openReadings.set(sewing.map, (readings = new Map()));
	let pieces = readings.get(sewing.regionId);
	if (pieces === undefined)
		readings.set(sewing.regionId, (pieces = openSatinPieces(sewing, column)));
	return pieces;
}

/** Share of a ragged column (see `readColumn`) that must be open for it to be sewn as a column. */
const minOpenShareOfRagged = 0.6;

function openRungShare(pieces: ColumnPiece[]): number {
	let open = 0;
	let all = 0;
	for (const piece of pieces) {
		all += piece.rungs.length;
		if (piece.holes) open += piece.rungs.length;
	}
	return all ? open / all : 0;
}

function sewColumn(sewing: RegionSewing, column: Column, density: Density): void {
	const { needle } = sewing;
	const compensation = needle.px(pullCompensationMm - halfThreadMm);
	const shortest = needle.px(shortestRungMm);
	let rungs = spaceRungs(column, needle.px(density.satinSpacingMm))
		.map((rung) => onFineEdges(sewing, rung))
		.filter(([a, b]) => hypot(b[0] - a[0], b[1] - a[1]) >= shortest)
		.map((rung) => widen(rung, compensation));
	if (rungs.length === 0) return;
	const middles = centreWalk(column, needle.px(centreWalkMm));
	const widest = widestRung(rungs);
	const underlay = density.underlay && widest >= needle.px(underlayMinWidthMm);
	const under = spaceRungs(column, needle.px(zigzagStepMm)).map((rung) =>
		shrink(rung, needle.px(underlayInsetMm)),
	);
	if (underlay && widest >= needle.px(zigzagMinWidthMm) && under.length >= 2) {
		// Out along one edge from the end nearer the needle, back in a zigzag over the width, then
		// the satin goes out again over both.
		const [nx, ny] = needle.position;
		const away = (rung: Rung) =>
			hypot((rung[0][0] + rung[1][0]) / 2 - nx, (rung[0][1] + rung[1][1]) / 2 - ny);
		const lastIsNearer = away(under[under.length - 1]) < away(under[0]);
		const out = !column.closed && lastIsNearer ? under.slice().reverse() : under;
		if (!column.closed && lastIsNearer) rungs = rungs.slice().reverse();
		sewing.travelTo(out[0][0][0], out[0][0][1]);
		for (const [[x, y]] of out.slice(1)) needle.stitchTo(x, y);
		out
			.slice()
			.reverse()
			.forEach((rung, k) => needle.stitchTo(...rung[(k + 1) % 2], satinStitchMaxMm));
	} else if (underlay) {
		// Out along the middle from the end nearer the needle, then the satin comes back.
		const [nx, ny] = needle.position;
		const first = middles[0];
		const last = middles[middles.length - 1];
		if (!column.closed && hypot(last[0] - nx, last[1] - ny) < hypot(first[0] - nx, first[1] - ny))
			middles.reverse();
		else rungs = rungs.slice().reverse();
		sewing.travelTo(middles[0][0], middles[0][1]);
		for (const [x, y] of middles.slice(1)) needle.stitchTo(x, y);
		if (column.closed) rungs = rungs.slice().reverse();
	} else {
		const [nx, ny] = needle.position;
		const [a] = rungs[0];
		const [b] = rungs[rungs.length - 1];
		if (hypot(b[0] - nx, b[1] - ny) < hypot(a[0] - nx, a[1] - ny)) rungs = rungs.slice().reverse();
	}
	const [sx, sy] = rungs[0][0];
	sewing.travelTo(sx, sy);
	rungs.forEach((rung, k) => {
		const [x, y] = rung[k % 2];
		needle.stitchTo(x, y, satinStitchMaxMm);
	});
	for (const rung of rungs) coverRung(sewing, rung);
}

/**
 * An open satin through holes read off the artwork: out along the middle (a centre walk; a zigzag
 * underlay would show between the stitches), then back through the holes.
 */
function sewOpenSatin(
	sewing: RegionSewing,
	rungs: Rung[],
	holes: Array<[number, number]>,
	density: Density,
): void {
	const { needle } = sewing;
	const column: Column = { rungs, closed: false };
	const middles = centreWalk(column, needle.px(centreWalkMm));
	const widest = widestRung(rungs);
	const [nx, ny] = needle.position;
	const first = holes[0];
	const last = holes[holes.length - 1];
	let path = holes;
	if (density.underlay && widest >= needle.px(underlayMinWidthMm) && middles.length >= 2) {
		// The walk starts at the end nearer the needle; the satin comes back over it.
		const walk =
			hypot(middles[middles.length - 1][0] - nx, middles[middles.length - 1][1] - ny) <
			hypot(middles[0][0] - nx, middles[0][1] - ny)
				? middles.slice().reverse()
				: middles;
		const startsAtFirst =
			hypot(walk[walk.length - 1][0] - first[0], walk[walk.length - 1][1] - first[1]) <
			hypot(walk[walk.length - 1][0] - last[0], walk[walk.length - 1][1] - last[1]);
		if (!startsAtFirst) path = holes.slice().reverse();
		sewing.travelTo(walk[0][0], walk[0][1]);
		for (const [x, y] of walk.slice(1)) needle.stitchTo(x, y);
	} else if (hypot(last[0] - nx, last[1] - ny) < hypot(first[0] - nx, first[1] - ny)) {
		path = holes.slice().reverse();
	}
	sewing.travelTo(path[0][0], path[0][1]);
	for (const [x, y] of path.slice(1)) needle.stitchTo(x, y, satinStitchMaxMm);
	for (let k = 1; k < path.length; k++) coverRung(sewing, [path[k - 1], path[k]]);
}

/** Points `stepPx` apart along a column's middle: where its centre-walk underlay pierces. */
function centreWalk(column: Column, stepPx: number): Array<[number, number]> {
	return spaceRungs(column, stepPx).map(([a, b]): [number, number] => [
		(a[0] + b[0]) / 2,
		(a[1] + b[1]) / 2,
	]);
}

/** Length of the longest rung. */
function widestRung(rungs: Rung[]): number {
	return rungs.reduce((w, [a, b]) => max(w, hypot(b[0] - a[0], b[1] - a[1])), 0);
}

/** How far (working pixels) a rung's end may move to reach the edge the artwork's own pixels show. */
const fineReachPx = 1;
/** Step of the search for that edge, working pixels. */
const fineStepPx = 0.125;

/**
 * Moves each end of a rung along it to where the artwork's own pixels put the column's edge, when
 * the artwork has pixels finer than the working grid: the traced edge lies on working pixels.
 */
function onFineEdges(sewing: RegionSewing, rung: Rung): Rung {
	const { fine, regions } = sewing.map;
	if (!fine) return rung;
	const label = regions[sewing.regionId].label;
	const [a, b] = rung;
	const length = hypot(b[0] - a[0], b[1] - a[1]);
	if (length < 1) return rung;
	const ux = (b[0] - a[0]) / length;
	const uy = (b[1] - a[1]) / length;
	const inward = min(fineReachPx, length / 2);
	const edge = (p: [number, number], sx: number, sy: number): [number, number] => {
		const at = (t: number) => fine.at(p[0] + sx * t, p[1] + sy * t) === label;
		// Only a clean edge moves: the column inside, another colour outside and one crossing between.
		// Where the artwork is a texture finer than the grid (rows with slits), the grid's edge stays.
		if (!at(-inward) || at(fineReachPx)) return p;
		let crossing = NaN;
		let changes = 0;
		for (let t = -inward; t + fineStepPx <= fineReachPx + 1e-9; t += fineStepPx) {
			if (at(t) === at(t + fineStepPx)) continue;
			changes++;
			crossing = t + fineStepPx / 2;
		}
		if (changes !== 1) return p;
		return [p[0] + sx * crossing, p[1] + sy * crossing];
	};
	return [edge(a, -ux, -uy), edge(b, ux, uy)];
}

/** Shortens a rung by `px` at both ends (to its middle when it is shorter than that). */
function shrink([a, b]: Rung, px: number): Rung {
	const length = hypot(b[0] - a[0], b[1] - a[1]);
	const t = length > 2 * px ? px / length : 0.5;
	return [
		[a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t],
		[b[0] - (b[0] - a[0]) * t, b[1] - (b[1] - a[1]) * t],
	];
}

/** Lengthens a rung by `px` at both ends (shortens it when `px` is negative, at most to its middle). */
function widen([a, b]: Rung, px: number): Rung {
	const length = hypot(b[0] - a[0], b[1] - a[1]) || 1;
	px = max(px, -length / 2);
	const ux = ((b[0] - a[0]) / length) * px;
	const uy = ((b[1] - a[1]) / length) * px;
	return [
		[a[0] - ux, a[1] - uy],
		[b[0] + ux, b[1] + uy],
	];
}

function coverRung(sewing: RegionSewing, [a, b]: Rung): void {
	const { width, height } = sewing.map;
	const length = hypot(b[0] - a[0], b[1] - a[1]);
	const steps = max(1, floor(length / 0.5));
	for (let s = 0; s <= steps; s++) {
		const x = floor(a[0] + ((b[0] - a[0]) * s) / steps);
		const y = floor(a[1] + ((b[1] - a[1]) * s) / steps);
		if (x >= 0 && y >= 0 && x < width && y < height) sewing.covered[y * width + x] = 1;
	}
}

/** Satin column: a light zig-zag underlay, then dense stitches from edge to edge across the shape. */
export function sewSatin(sewing: RegionSewing, density: Density): void {
	const { needle, map, regionId } = sewing;
	const frame = frameAt(acrossAngle(map, regionId));
	const region = map.regions[regionId];
	if (density.underlay && region.widthPx * needle.pixelMm >= 1.2) {
		const rows = scanRegion(map, regionId, frame, needle.px(1), needle.px(0.3));
		sewSections(sewing, frame, rows, (span) => sewZigZag(sewing, frame, span));
	}
	const spacing = needle.px(density.satinSpacingMm);
	const rows = reachEdges(
		scanRegion(map, regionId, frame, spacing, 0),
		needle.px(pullCompensationMm - halfThreadMm),
	);
	sewSections(sewing, frame, rows, (span) => {
		sewZigZag(sewing, frame, span);
		sewing.cover(frame, span, spacing / 2);
	});
}

/** Lengthens spans by `px` at both ends, as `widen` does a rung. */
function reachEdges(rows: Span[][], px: number): Span[][] {
	if (px >= 0) return lengthenSpans(rows, px);
	for (const row of rows) {
		for (const span of row) {
			const middle = (span.u0 + span.u1) / 2;
			span.u0 = min(span.u0 - px, middle);
			span.u1 = max(span.u1 + px, middle);
		}
	}
	return rows;
}

/** One satin pass: a single stitch to the far side of the column, so passes alternate side to side. */
function sewZigZag(sewing: RegionSewing, frame: ScanFrame, span: Span): void {
	const [nx, ny] = sewing.needle.position;
	const [ax, ay] = toPixel(frame, span.u0, span.v);
	const [bx, by] = toPixel(frame, span.u1, span.v);
	const towardsStart = hypot(ax - nx, ay - ny) >= hypot(bx - nx, by - ny);
	const [tx, ty] = towardsStart ? [ax, ay] : [bx, by];
	sewing.joinTo(tx, ty);
}

/** Satin runs across a column: perpendicular to the region's long axis. */
function acrossAngle(map: RegionMap, regionId: number): number {
	return principalAxis(map, regionId).angle + PI / 2;
}
