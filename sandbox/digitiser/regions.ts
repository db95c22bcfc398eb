import type { FineLabels } from './fine';
import type { OpenFill } from './openfill';
import { atan2, max, sqrt } from './math';

/** Connected areas of one thread colour, and how wide each one is. */

export const background = 255;

export interface Region {
	id: number;
	/** Thread slot, or `background`. */
	label: number;
	area: number;
	minX: number;
	minY: number;
	maxX: number;
	maxY: number;
	/** Widest inscribed diameter in pixels: decides fill versus satin. */
	widthPx: number;
	touchesBorder: boolean;
	/**
	 * Set when the region is a line or a network of lines split off a wider shape (see
	 * `splitThinParts`): sewn as a running stitch whatever the scale it is sewn at.
	 */
	stroke?: boolean;
	/**
	 * Set by `planStitches` when it sews the region as a running stitch at its scale (a stroke, or a
	 * region narrow enough; see `sewnAsRunning`): travel of another thread may not follow it.
	 */
	line?: boolean;
	/** Set on a branch cut from a fork of a branched band (see `splitBranches`). */
	branch?: boolean;
}

export interface RegionMap {
	width: number;
	height: number;
	/** Region id of every pixel (index into `regions`). */
	ids: Int32Array;
	regions: Region[];
	/** Chamfer distance, in pixels, from each pixel to the nearest pixel of another label or the image edge. */
	inset: Float32Array;
	/** A flat artwork's thread slots at its own, finer pixels (see `Artwork.fine`). */
	fine?: FineLabels;
	/** Areas sewn in their thread with open rows of another over them (see `findOpenFills`). */
	openFills?: OpenFill[];
	/** How much taller than wide a pixel is on the fabric (see `Artwork.pixelAspect`); 1 if absent. */
	pixelAspect?: number;
}

/** Labels 4-connected areas of equal label and measures each. */
export function findRegions(labels: Uint8Array, width: number, height: number): RegionMap {
	const size = width * height;
	const ids = new Int32Array(size).fill(-1);
	const regions: Region[] = [];
	// A pixel is a seed at most twice (from the runs above and below it): the stack grows if needed.
	let stack = new Int32Array(max(16, size >> 2));
	for (let start = 0; start < size; start++) {
		if (ids[start] >= 0) continue;
		const label = labels[start];
		const region: Region = {
			id: regions.length,
			label,
			area: 0,
			minX: width,
			minY: height,
			maxX: 0,
			maxY: 0,
			widthPx: 0,
			touchesBorder: false,
		};
		// Scanline fill: each seed's whole run along its row at once, then one seed for each run of
		// the region's pixels in the rows beside it.
		let top = 0;
		stack[top++] = start;
		while (top > 0) {
			const seed = stack[--top];
			if (ids[seed] >= 0) continue;
			const y = (seed - (seed % width)) / width;
			const row = y * width;
			let left = seed;
			while (left > row && ids[left - 1] < 0 && labels[left - 1] === label) left--;
			let right = seed;
			while (right < row + width - 1 && ids[right + 1] < 0 && labels[right + 1] === label) right++;
			ids.fill(region.id, left, right + 1);
			region.area += right - left + 1;
			if (left - row < region.minX) region.minX = left - row;
			if (right - row > region.maxX) region.maxX = right - row;
			if (y < region.minY) region.minY = y;
			if (y > region.maxY) region.maxY = y;
			if (left === row || right === row + width - 1 || y === 0 || y === height - 1)
				region.touchesBorder = true;
			for (let side = -width; side <= width; side += 2 * width) {
				const from = left + side;
				if (from < 0 || from >= size) continue;
				let open = false;
				for (let i = from; i <= right + side; i++) {
					const joins = ids[i] < 0 && labels[i] === label;
					if (joins && !open) {
						if (top === stack.length) {
							const grown = new Int32Array(2 * stack.length);
							grown.set(stack);
							stack = grown;
						}
						stack[top++] = i;
					}
					open = joins;
				}
			}
		}
		regions.push(region);
	}
	const inset = insetDistances(labels, width, height);
	for (let i = 0; i < size; i++) {
		const region = regions[ids[i]];
		const odd = 2 * inset[i] - 1;
		// An even ridge adds one pixel at most: a pixel that cannot widen its region is not looked at.
		if (odd + 1 <= region.widthPx) continue;
		const diameter = odd + (evenRidge(inset, ids, width, height, i) ? 1 : 0);
		if (diameter > region.widthPx) region.widthPx = diameter;
	}
	return { width, height, ids, regions, inset };
}

/**
 * Each region's pixels, in scan order, from one pass over the map: what a step that visits regions
 * one by one reads instead of scanning each region's box (a long diagonal line's box is most of the
 * map, and a design of many such lines made that quadratic).
 */
export function regionPixels(map: RegionMap): (regionId: number) => Int32Array {
	const { ids, regions } = map;
	const starts = new Int32Array(regions.length + 1);
	for (let i = 0; i < ids.length; i++) starts[ids[i] + 1]++;
	for (let id = 0; id < regions.length; id++) starts[id + 1] += starts[id];
	const next = starts.slice(0, regions.length);
	const pixels = new Int32Array(ids.length);
	for (let i = 0; i < ids.length; i++) pixels[next[ids[i]]++] = i;
	return (regionId) => pixels.subarray(starts[regionId], starts[regionId + 1]);
}

/**
 * True when the pixel is one of two middle pixels of a band an even number of pixels wide (a
 * neighbour across as deep inside as it, both with shallower pixels beyond): such a band is
 * one pixel wider than its middle pixels' inset alone says, so a 2-pixel line is 2 wide, not 1.
 */
function evenRidge(
	inset: Float32Array,
	ids: Int32Array,
	width: number,
	height: number,
	i: number,
): boolean {
	const x = i % width;
	const y = (i - x) / width;
	const depth = inset[i];
	const id = ids[i];
	// Right, then down; no closure or list per pixel (this runs over whole maps).
	for (let axis = 0; axis < 2; axis++) {
		const dx = 1 - axis;
		const dy = axis;
		const j = (y + dy) * width + x + dx;
		if (x + dx >= width || y + dy >= height || ids[j] !== id || inset[j] !== depth) continue;
		if (
			shallower(inset, ids, width, height, x - dx, y - dy, id, depth) &&
			shallower(inset, ids, width, height, x + 2 * dx, y + 2 * dy, id, depth)
		)
			return true;
	}
	return false;
}

/** True off the map, outside region `id`, or where the region is less deep than `depth`. */
function shallower(
	inset: Float32Array,
	ids: Int32Array,
	width: number,
	height: number,
	px: number,
	py: number,
	id: number,
	depth: number,
): boolean {
	return (
		px < 0 ||
		py < 0 ||
		px >= width ||
		py >= height ||
		ids[py * width + px] !== id ||
		inset[py * width + px] < depth
	);
}

/** Two-pass 3-4 chamfer distance to the nearest pixel of a different label (the image edge counts as one). */
export function insetDistances(labels: Uint8Array, width: number, height: number): Float32Array {
	const size = width * height;
	const d = new Float32Array(size);
	const far = 1e9;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			const l = labels[i];
			const edge =
				x === 0 ||
				y === 0 ||
				x === width - 1 ||
				y === height - 1 ||
				labels[i - 1] !== l ||
				labels[i + 1] !== l ||
				labels[i - width] !== l ||
				labels[i + width] !== l;
			d[i] = edge ? 3 : far;
		}
	}
	// Written out (no min() of five per pixel): this runs over the whole map on every findRegions.
	for (let y = 1; y < height; y++) {
		for (let x = 1; x < width - 1; x++) {
			const i = y * width + x;
			let v = d[i];
			if (v === 3) continue;
			if (d[i - 1] + 3 < v) v = d[i - 1] + 3;
			if (d[i - width] + 3 < v) v = d[i - width] + 3;
			if (d[i - width - 1] + 4 < v) v = d[i - width - 1] + 4;
			if (d[i - width + 1] + 4 < v) v = d[i - width + 1] + 4;
			d[i] = v;
		}
	}
	for (let y = height - 2; y >= 0; y--) {
		for (let x = width - 2; x >= 1; x--) {
			const i = y * width + x;
			let v = d[i];
			if (v === 3) continue;
			if (d[i + 1] + 3 < v) v = d[i + 1] + 3;
			if (d[i + width] + 3 < v) v = d[i + width] + 3;
			if (d[i + width + 1] + 4 < v) v = d[i + width + 1] + 4;
			if (d[i + width - 1] + 4 < v) v = d[i + width - 1] + 4;
			d[i] = v;
		}
	}
	for (let i = 0; i < size; i++) d[i] /= 3;
	return d;
}

/**
 * The direction a region is longest in (its principal component), and how elongated it is:
 * the ratio of its spread along that axis to its spread across it (1 for a disc or a square).
 */
export function principalAxis(
	map: RegionMap,
	regionId: number,
): { angle: number; elongation: number } {
	const region = map.regions[regionId];
	let n = 0;
	let sx = 0;
	let sy = 0;
	let sxx = 0;
	let syy = 0;
	let sxy = 0;
	for (let y = region.minY; y <= region.maxY; y++) {
		for (let x = region.minX; x <= region.maxX; x++) {
			if (map.ids[y * map.width + x] !== regionId) continue;
			n++;
			sx += x;
			sy += y;
			sxx += x * x;
			syy += y * y;
			sxy += x * y;
		}
	}
	const { angle, elongation } = axisOfMoments(n, sx, sy, sxx, syy, sxy);
	return { angle, elongation };
}

/**
 * The centre, long axis (radians, -pi/2 to pi/2) and elongation (see `principalAxis`) of `n` pixels
 * from the sums of their coordinates, their squares and their products.
 */
export function axisOfMoments(
	n: number,
	sx: number,
	sy: number,
	sxx: number,
	syy: number,
	sxy: number,
): { cx: number; cy: number; angle: number; elongation: number } {
	const cx = sx / n;
	const cy = sy / n;
	const cxx = sxx / n - cx * cx;
	const cyy = syy / n - cy * cy;
	const cxy = sxy / n - cx * cy;
	const spread = sqrt((cxx - cyy) * (cxx - cyy) + 4 * cxy * cxy);
	const along = (cxx + cyy + spread) / 2;
	const across = max((cxx + cyy - spread) / 2, 1e-9);
	return { cx, cy, angle: 0.5 * atan2(2 * cxy, cxx - cyy), elongation: sqrt(along / across) };
}

/** Chamfer distance (pixels, 1 and 1.4142 steps) from every pixel to the nearest pixel set in `seed`. */
export function chamferDistances(seed: Uint8Array, w: number, h: number): Float32Array {
	const d = new Float32Array(w * h);
	for (let i = 0; i < w * h; i++) d[i] = seed[i] ? 0 : 1e9;
	const diagonal = 1.4142;
	// Written out (no helper per pixel): this runs over every pixel of a shape's box four times. The
	// first and last columns are done apart, so the inner loops test no bounds.
	for (let x = 1; x < w; x++) if (d[x - 1] + 1 < d[x]) d[x] = d[x - 1] + 1;
	for (let y = 1; y < h; y++) {
		const row = y * w;
		let k = row;
		let v = d[k];
		if (d[k - w] + 1 < v) v = d[k - w] + 1;
		if (w > 1 && d[k - w + 1] + diagonal < v) v = d[k - w + 1] + diagonal;
		d[k] = v;
		for (k = row + 1; k < row + w - 1; k++) {
			v = d[k];
			if (d[k - 1] + 1 < v) v = d[k - 1] + 1;
			if (d[k - w] + 1 < v) v = d[k - w] + 1;
			if (d[k - w - 1] + diagonal < v) v = d[k - w - 1] + diagonal;
			if (d[k - w + 1] + diagonal < v) v = d[k - w + 1] + diagonal;
			d[k] = v;
		}
		if (w > 1) {
			k = row + w - 1;
			v = d[k];
			if (d[k - 1] + 1 < v) v = d[k - 1] + 1;
			if (d[k - w] + 1 < v) v = d[k - w] + 1;
			if (d[k - w - 1] + diagonal < v) v = d[k - w - 1] + diagonal;
			d[k] = v;
		}
	}
	const last = (h - 1) * w;
	for (let x = w - 2; x >= 0; x--)
		if (d[last + x + 1] + 1 < d[last + x]) d[last + x] = d[last + x + 1] + 1;
	for (let y = h - 2; y >= 0; y--) {
		const row = y * w;
		let k = row + w - 1;
		let v = d[k];
		if (d[k + w] + 1 < v) v = d[k + w] + 1;
		if (w > 1 && d[k + w - 1] + diagonal < v) v = d[k + w - 1] + diagonal;
		d[k] = v;
		for (k = row + w - 2; k > row; k--) {
			v = d[k];
			if (d[k + 1] + 1 < v) v = d[k + 1] + 1;
			if (d[k + w] + 1 < v) v = d[k + w] + 1;
			if (d[k + w + 1] + diagonal < v) v = d[k + w + 1] + diagonal;
			if (d[k + w - 1] + diagonal < v) v = d[k + w - 1] + diagonal;
			d[k] = v;
		}
		if (w > 1) {
			k = row;
			v = d[k];
			if (d[k + 1] + 1 < v) v = d[k + 1] + 1;
			if (d[k + w] + 1 < v) v = d[k + w] + 1;
			if (d[k + w + 1] + diagonal < v) v = d[k + w + 1] + diagonal;
			d[k] = v;
		}
	}
	return d;
}
