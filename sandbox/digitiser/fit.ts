import { Command, stitchBounds, type Pattern } from '../engine';
import { background, type RegionMap } from './regions';
import { round } from './math';

/** Bounds, in working pixels, of everything that will be sewn. */
export function designBox(
	map: RegionMap,
): { minX: number; minY: number; maxX: number; maxY: number } | null {
	let box: { minX: number; minY: number; maxX: number; maxY: number } | null = null;
	for (const region of map.regions) {
		if (region.label === background) continue;
		if (!box) box = { minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY };
		else {
			if (region.minX < box.minX) box.minX = region.minX;
			if (region.minY < box.minY) box.minY = region.minY;
			if (region.maxX > box.maxX) box.maxX = region.maxX;
			if (region.maxY > box.maxY) box.maxY = region.maxY;
		}
	}
	return box;
}

/** Width of the needle positions in millimetres (0 for a pattern with no stitch). */
export function sewnWidthMm(pattern: Pattern): number {
	const bounds = stitchBounds(pattern);
	return bounds ? (bounds.maxX - bounds.minX) / 10 : 0;
}

/** Every point of a pattern in design units as the needle planned it, before rounding to the 0.1 mm grid. */
export interface ExactPoints {
	xs: number[];
	ys: number[];
}

/**
 * Scales the pattern so its needle positions span exactly `widthMm` (to the 0.1 mm grid every
 * format stores), moving the design's middle `[cx, cy]` (pattern units) to the origin; returns the scale.
 * Each point is scaled from where the needle planned it and rounded once, so none lies more than
 * half a grid step from its place (the pattern's own points were rounded as they were written).
 */
export function fitToWidth(
	pattern: Pattern,
	exact: ExactPoints,
	widthMm: number,
	[cx, cy]: [number, number],
): number {
	const { xs, ys, commands, length } = pattern;
	let minX = Infinity;
	let maxX = -Infinity;
	for (let i = 0; i < length; i++) {
		if (commands[i] !== Command.Stitch) continue;
		if (exact.xs[i] < minX) minX = exact.xs[i];
		if (exact.xs[i] > maxX) maxX = exact.xs[i];
	}
	if (!(maxX > minX)) return 1;
	const target = round(widthMm * 10);
	const scale = target / (maxX - minX);
	// Measured from the leftmost needle, so the two extremes land exactly `target` apart.
	const left = round((minX - cx) * scale);
	for (let i = 0; i < length; i++) {
		xs[i] = left + round((exact.xs[i] - minX) * scale);
		ys[i] = round((exact.ys[i] - cy) * scale);
	}
	return scale;
}
