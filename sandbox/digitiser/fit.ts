import { stitchBounds, type Pattern } from '../engine';
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

/**
 * Scales the pattern so its needle positions span exactly `widthMm` (to the 0.1 mm grid every
 * format stores), moving the design's middle `[cx, cy]` (pattern units) to the origin; returns the scale.
 */
export function fitToWidth(pattern: Pattern, widthMm: number, [cx, cy]: [number, number]): number {
	const bounds = stitchBounds(pattern);
	if (!bounds || bounds.maxX === bounds.minX) return 1;
	const scale = round(widthMm * 10) / (bounds.maxX - bounds.minX);
	const { xs, ys, length } = pattern;
	for (let i = 0; i < length; i++) {
		xs[i] = round((xs[i] - cx) * scale);
		ys[i] = round((ys[i] - cy) * scale);
	}
	return scale;
}
