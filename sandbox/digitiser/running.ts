import { abs, ceil, floor, hypot, max } from './math';
import { halfThreadMm } from './satin';
import type { RegionSewing } from './sewing';
import { doubleRunTours, skeletonise, type Point, type SidedPoint } from './skeleton';

/** Stitch length for hairlines: short, so the run follows curves. */
const runStitchMm = 1.4;
/** Longest running stitch: a tip carried on to its line's end may lengthen the last one a little. */
const runStitchMaxMm = 1.6;
/**
 * How far a running stitch may cut a curve of its line's middle: a quarter of a thread, or half a
 * thread for a stitch under `shortRunMm` (held that close, a line's small wobbles become short stitches).
 */
const runToleranceMm = 0.1;
const shortRunMm = 1;
/**
 * How far past a skeleton's tip a line's end is looked for, in the line's widths: thinning ate up to
 * 2.9 mm of a 0.4 mm line at 45 degrees (its two-pixel stair steps, from the end).
 */
const tipReachWidths = 8;
/** The grid every stitch file records needle holes on. */
const holeGridMm = 0.1;

/**
 * A line too thin for satin, sewn as a double running stitch along its centre line: the region is
 * thinned to its skeleton, and every branch is sewn out and back, so the thread covers what the
 * line draws and no more. On a line a thread wide both passes share the holes on its middle; on
 * a wider one each pass lies half a thread inside one of its edges (the way out on one side, the
 * way back on the other), so the two threads together cover its width as drawn. A lattice or
 * grid of lines is sewn the same way, along each of its lines.
 */
export function sewRunning(sewing: RegionSewing): void {
	const { needle, map, regionId } = sewing;
	const halfWidth = max(0.5, map.regions[regionId].widthPx / 2);
	const skeleton = skeletonise(map, regionId, sewing.pixelsOf?.(regionId));
	const tours = doubleRunTours(
		skeleton,
		needle.position,
		{
			stepPx: needle.px(runStitchMm),
			tolerancePx: needle.px(runToleranceMm),
			shortPx: needle.px(shortRunMm),
			spurPx: ceil(halfWidth) + 1,
		},
		(x, y, dx, dy) => middleOfLine(sewing, x, y, dx, dy, halfWidth, needle.px(halfThreadMm)),
		(x, y, dx, dy) => endOfLine(sewing, x, y, dx, dy, halfWidth),
	);
	for (const tour of tours) {
		if (tour.length < 2) continue;
		sewing.travelTo(tour[0][0], tour[0][1]);
		for (let k = 1; k < tour.length; k++) needle.stitchTo(tour[k][0], tour[k][1], runStitchMaxMm);
	}
}

/**
 * How far from (x, y) along (ux, uy) the line's edge lies, to a quarter pixel, up to just past
 * `reach`: read on the working grid, or at the artwork's own pixels (`fine`).
 */
function edgeAlong(
	sewing: RegionSewing,
	x: number,
	y: number,
	ux: number,
	uy: number,
	reach: number,
	fine: boolean,
): number {
	let t = 0;
	while (t <= reach) {
		const px = x + ux * (t + 0.25);
		const py = y + uy * (t + 0.25);
		if (!(fine ? onLine(sewing, px, py) : inRegion(sewing, px, py))) break;
		t += 0.25;
	}
	return t + 0.125;
}

/**
 * True where the line being sewn lies under (x, y): read at the artwork's own pixels where it has
 * finer ones, so its edges are found between working pixels.
 */
function onLine(sewing: RegionSewing, x: number, y: number): boolean {
	const { fine, regions } = sewing.map;
	if (!fine) return inRegion(sewing, x, y);
	return fine.at(x, y) === regions[sewing.regionId].label;
}

/** The region of the working pixel under (x, y), or -1 off the map. */
function regionAt(sewing: RegionSewing, x: number, y: number): number {
	const { width, height, ids } = sewing.map;
	const px = floor(x);
	const py = floor(y);
	return px >= 0 && py >= 0 && px < width && py < height ? ids[py * width + px] : -1;
}

/** True where the pixel under (x, y) belongs to another region of the same colour. */
function inOtherRegion(sewing: RegionSewing, x: number, y: number): boolean {
	const { regions } = sewing.map;
	const id = regionAt(sewing, x, y);
	return id >= 0 && id !== sewing.regionId && regions[id].label === regions[sewing.regionId].label;
}

/** True where the pixel under (x, y) belongs to the region being sewn. */
function inRegion(sewing: RegionSewing, x: number, y: number): boolean {
	return regionAt(sewing, x, y) === sewing.regionId;
}

/**
 * The middle of the line across a skeleton pixel: halfway between where the line's edges cross
 * the normal to its direction. Thinning leaves the centre line on one of the two middle pixels of
 * a line an even number of pixels wide; this puts it between them. With it, the offset that puts
 * each of the two passes half a thread (`halfThreadPx`) inside one edge, none on a line no wider
 * than a thread. Where the normal runs far (into a crossing line), the pixel stays.
 */
function middleOfLine(
	sewing: RegionSewing,
	x: number,
	y: number,
	dx: number,
	dy: number,
	halfWidth: number,
	halfThreadPx: number,
): Point | SidedPoint {
	const length = hypot(dx, dy);
	if (length === 0) return [x, y];
	const nx = -dy / length;
	const ny = dx / length;
	const reach = halfWidth + 1.5;
	let plus = edgeAlong(sewing, x, y, nx, ny, reach, false);
	let minus = edgeAlong(sewing, x, y, -nx, -ny, reach, false);
	if (sewing.map.fine) {
		// The artwork's own pixels place the edges between working pixels; where they tell another
		// story (a texture the grid merged into one line), the grid's edges stay.
		const finePlus = edgeAlong(sewing, x, y, nx, ny, reach, true);
		const fineMinus = edgeAlong(sewing, x, y, -nx, -ny, reach, true);
		if (abs(finePlus - plus) <= 1 && abs(fineMinus - minus) <= 1) {
			plus = finePlus;
			minus = fineMinus;
		}
	}
	if (plus > reach || minus > reach) return [x, y];
	const shift = (plus - minus) / 2;
	const side = (plus + minus) / 2 - halfThreadPx;
	// Under half the 0.1 mm every file records, the two passes are one track; and where the line
	// reads wider than it is (beside a crossing or a fork) it is not spread.
	if (side * sewing.needle.pixelMm < holeGridMm / 2 || plus + minus > 2 * halfWidth + 1)
		return [x + nx * shift, y + ny * shift];
	return [x + nx * shift, y + ny * shift, nx * side, ny * side];
}

/**
 * Where the line ends beyond a tip of its skeleton: a drawn line ends where its stitch ends, and
 * thinning stops half the line's width short of it, or further on a line at a slant to the pixels
 * (a line 0.4 mm wide at 45 degrees lost up to 2.9 mm at one end). Walked out along the line as
 * far as it goes, up to `tipReachWidths` of its width and a pixel, kept on the line's middle: the
 * tip of an eaten end lies to one side of it, and a straight walk from there leaves a slanted
 * line through its side.
 */
function endOfLine(
	sewing: RegionSewing,
	x: number,
	y: number,
	dx: number,
	dy: number,
	halfWidth: number,
): Point {
	const length = hypot(dx, dy);
	if (length === 0) return [x, y];
	const ux = dx / length;
	const uy = dy / length;
	const reach = 2 * tipReachWidths * halfWidth + 1;
	const across = halfWidth + 1.5;
	let px = x;
	let py = y;
	// Not into another region: where the line meets a broader part of its colour (sewn on its own),
	// the colour runs on but the line ends.
	const ahead = (t: number) =>
		onLine(sewing, px + ux * t, py + uy * t) && !inOtherRegion(sewing, px + ux * t, py + uy * t);
	for (let t = 0; t < reach && ahead(0.25); t += 0.25) {
		px += ux * 0.25;
		py += uy * 0.25;
		const left = edgeAlong(sewing, px, py, -uy, ux, across, true);
		const right = edgeAlong(sewing, px, py, uy, -ux, across, true);
		if (left > across || right > across) continue;
		px -= (uy * (left - right)) / 2;
		py += (ux * (left - right)) / 2;
	}
	return [px, py];
}
