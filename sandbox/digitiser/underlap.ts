import { ceil, floor, hypot, max, min } from './math';
import { background, type RegionMap } from './regions';

/**
 * Where a region's top stitching may go: its own pixels and a band of its neighbours that are sewn
 * later (design areas whose pixels no top stitching covers yet). A professional lets a lower layer
 * run under the shapes sewn over it, so the fabric's pull never opens a gap between them.
 */
export interface Underlap {
	minX: number;
	minY: number;
	maxX: number;
	maxY: number;
	/** 1 where the region's stitching may go, over the box row by row. */
	mask: Uint8Array;
}

/** The band of later neighbours within `reachPx` of the region, with the region itself. */
export function underlapOf(
	map: RegionMap,
	regionId: number,
	covered: Uint8Array,
	reachPx: number,
): Underlap {
	const { width, height, ids, regions } = map;
	const region = regions[regionId];
	const margin = ceil(reachPx);
	const minX = max(0, region.minX - margin);
	const minY = max(0, region.minY - margin);
	const maxX = min(width - 1, region.maxX + margin);
	const maxY = min(height - 1, region.maxY + margin);
	const w = maxX - minX + 1;
	const h = maxY - minY + 1;
	// Chamfer distance (pixels) from the region, over the box.
	const far = 1e9;
	const d = new Float32Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++)
			d[y * w + x] = ids[(y + minY) * width + x + minX] === regionId ? 0 : far;
	}
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const k = y * w + x;
			let v = d[k];
			if (x > 0) v = min(v, d[k - 1] + 1);
			if (y > 0) {
				v = min(v, d[k - w] + 1);
				if (x > 0) v = min(v, d[k - w - 1] + 1.4142);
				if (x < w - 1) v = min(v, d[k - w + 1] + 1.4142);
			}
			d[k] = v;
		}
	}
	for (let y = h - 1; y >= 0; y--) {
		for (let x = w - 1; x >= 0; x--) {
			const k = y * w + x;
			let v = d[k];
			if (x < w - 1) v = min(v, d[k + 1] + 1);
			if (y < h - 1) {
				v = min(v, d[k + w] + 1);
				if (x < w - 1) v = min(v, d[k + w + 1] + 1.4142);
				if (x > 0) v = min(v, d[k + w - 1] + 1.4142);
			}
			d[k] = v;
		}
	}
	const mask = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const k = y * w + x;
			const i = (y + minY) * width + x + minX;
			const id = ids[i];
			if (id === regionId) mask[k] = 1;
			else if (d[k] <= reachPx && regions[id].label !== background && !covered[i]) mask[k] = 1;
		}
	}
	return { minX, minY, maxX, maxY, mask };
}

/** True when the straight line stays where the region may be sewn, straying at most `slackPx`. */
export function staysWithin(
	underlap: Underlap,
	ax: number,
	ay: number,
	bx: number,
	by: number,
	slackPx: number,
): boolean {
	const { minX, minY, maxX, maxY, mask } = underlap;
	const w = maxX - minX + 1;
	const allowed = (x: number, y: number) =>
		x >= minX && y >= minY && x <= maxX && y <= maxY && mask[(y - minY) * w + x - minX] === 1;
	const steps = max(1, ceil(hypot(bx - ax, by - ay) / 0.5));
	for (let s = 0; s <= steps; s++) {
		const x = floor(ax + ((bx - ax) * s) / steps);
		const y = floor(ay + ((by - ay) * s) / steps);
		if (allowed(x, y)) continue;
		let near = false;
		for (let dy = -slackPx; dy <= slackPx && !near; dy++) {
			for (let dx = -slackPx; dx <= slackPx && !near; dx++) near = allowed(x + dx, y + dy);
		}
		if (!near) return false;
	}
	return true;
}
