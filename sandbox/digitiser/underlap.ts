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
	// Every later neighbour's pixel within reach of the region's edge: a disc stamped at each edge pixel.
	// As two flat lists of offsets: it is stamped at every edge pixel of every fill.
	const discX: number[] = [];
	const discY: number[] = [];
	for (let dy = -margin; dy <= margin; dy++) {
		for (let dx = -margin; dx <= margin; dx++) {
			if (dx * dx + dy * dy > reachPx * reachPx) continue;
			discX.push(dx);
			discY.push(dy);
		}
	}
	const dxs = Int32Array.from(discX);
	const dys = Int32Array.from(discY);
	const mask = new Uint8Array(w * h);
	const isRegion = (x: number, y: number) =>
		x >= 0 && y >= 0 && x < width && y < height && ids[y * width + x] === regionId;
	for (let y = region.minY; y <= region.maxY; y++) {
		for (let x = region.minX; x <= region.maxX; x++) {
			if (!isRegion(x, y)) continue;
			mask[(y - minY) * w + x - minX] = 1;
			const edge =
				!isRegion(x - 1, y) || !isRegion(x + 1, y) || !isRegion(x, y - 1) || !isRegion(x, y + 1);
			if (!edge) continue;
			for (let k = 0; k < dxs.length; k++) {
				const px = x + dxs[k];
				const py = y + dys[k];
				if (px < minX || py < minY || px > maxX || py > maxY) continue;
				const i = py * width + px;
				const id = ids[i];
				if (id !== regionId && regions[id].label !== background && !covered[i])
					mask[(py - minY) * w + px - minX] = 1;
			}
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
