import sharp from 'sharp';

import { pullCompensationMm } from '../../../../sandbox/digitiser/sewing';
import { Command, type Pattern } from '../../../../sandbox/engine/pattern';

// Bound once: a global lookup per pixel is slow inside jest's vm context.
const { ceil, floor, hypot, max, round } = Math;

/** Thread lies about 0.4 mm wide on fabric. */
const threadWidthMm = 0.4;

export interface Raster {
	width: number;
	height: number;
	/** One mask per colour block, 1 where the block's thread covers the fabric. */
	blocks: Uint8Array[];
}

/** A piece of fabric in millimetres, and where the pattern's origin lies on it (mm from its top-left). */
export interface Frame {
	widthMm: number;
	heightMm: number;
	originXMm: number;
	originYMm: number;
}

/** A frame with the pattern's origin in its middle: right for artwork whose design fills the canvas. */
export function centredFrame(widthMm: number, heightMm: number): Frame {
	return { widthMm, heightMm, originXMm: widthMm / 2, originYMm: heightMm / 2 };
}

/**
 * The artwork's whole canvas as the digitiser lays it on the fabric: the design (the pixels
 * `isDesign` accepts in `regions`, a `widthPx` x `heightPx` map of the canvas) is sewn
 * `widthMm` wide, pull compensation included, and centred on the pattern's origin.
 */
export function canvasFrame(
	regions: Int8Array,
	widthPx: number,
	heightPx: number,
	isDesign: (region: number) => boolean,
	widthMm: number,
): Frame {
	let minX = widthPx;
	let maxX = -1;
	let minY = heightPx;
	let maxY = -1;
	for (let y = 0; y < heightPx; y++) {
		for (let x = 0; x < widthPx; x++) {
			if (!isDesign(regions[y * widthPx + x])) continue;
			minX = Math.min(minX, x);
			maxX = Math.max(maxX, x);
			minY = Math.min(minY, y);
			maxY = Math.max(maxY, y);
		}
	}
	const mmPerPx = (widthMm - 2 * pullCompensationMm) / (maxX + 1 - minX);
	return {
		widthMm: widthPx * mmPerPx,
		heightMm: heightPx * mmPerPx,
		originXMm: ((minX + maxX + 1) / 2) * mmPerPx,
		originYMm: ((minY + maxY + 1) / 2) * mmPerPx,
	};
}

/**
 * Draws the sewn stitches (not jumps) as 0.4 mm threads on a grid of `pixelMm` over `frame`.
 * A pixel is covered when its centre lies under a thread.
 */
export function renderStitches(pattern: Pattern, frame: Frame, pixelMm: number): Raster {
	const width = round(frame.widthMm / pixelMm);
	const height = round(frame.heightMm / pixelMm);
	const blocks: Uint8Array[] = [new Uint8Array(width * height)];
	const toPx = (x: number, y: number): [number, number] => [
		(x / 10 + frame.originXMm) / pixelMm,
		(y / 10 + frame.originYMm) / pixelMm,
	];
	const radius = threadWidthMm / 2 / pixelMm;
	const stamp = (mask: Uint8Array, x: number, y: number) => {
		for (let py = floor(y - radius - 0.5); py <= ceil(y + radius); py++) {
			for (let px = floor(x - radius - 0.5); px <= ceil(x + radius); px++) {
				if (px < 0 || py < 0 || px >= width || py >= height) continue;
				if (hypot(px + 0.5 - x, py + 0.5 - y) <= radius) mask[py * width + px] = 1;
			}
		}
	};
	let previousStitch = false;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (command === Command.ColorChange) blocks.push(new Uint8Array(width * height));
		if (command !== Command.Stitch) {
			previousStitch = false;
			continue;
		}
		const mask = blocks[blocks.length - 1];
		const [bx, by] = toPx(pattern.xs[i], pattern.ys[i]);
		if (previousStitch) {
			const [ax, ay] = toPx(pattern.xs[i - 1], pattern.ys[i - 1]);
			const steps = max(1, ceil(hypot(bx - ax, by - ay) / 0.25));
			for (let s = 0; s <= steps; s++)
				stamp(mask, ax + ((bx - ax) * s) / steps, ay + ((by - ay) * s) / steps);
		} else {
			stamp(mask, bx, by);
		}
		previousStitch = true;
	}
	return { width, height, blocks };
}

/** The artwork at preview scale, each pixel given the index of its nearest key colour (-1 for transparent). */
export async function artworkRegions(
	bytes: Buffer,
	width: number,
	height: number,
	keyColours: number[],
): Promise<Int8Array> {
	const { data } = await sharp(bytes, { density: 300 })
		.resize(width, height, { fit: 'fill' })
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	const regions = new Int8Array(width * height);
	for (let i = 0; i < width * height; i++) {
		if (data[i * 4 + 3] < 128) {
			regions[i] = -1;
			continue;
		}
		let best = 0;
		let bestDistance = Infinity;
		keyColours.forEach((colour, k) => {
			const d =
				((colour >> 16) - data[i * 4]) ** 2 +
				(((colour >> 8) & 255) - data[i * 4 + 1]) ** 2 +
				((colour & 255) - data[i * 4 + 2]) ** 2;
			if (d < bestDistance) {
				bestDistance = d;
				best = k;
			}
		});
		regions[i] = best;
	}
	return regions;
}

export function intersectionOverUnion(a: ArrayLike<number>, b: ArrayLike<number>): number {
	let both = 0;
	let either = 0;
	for (let i = 0; i < a.length; i++) {
		if (a[i] && b[i]) both++;
		if (a[i] || b[i]) either++;
	}
	return either ? both / either : 1;
}

/** The colour block whose thread is nearest (in RGB) to a colour. */
export function blockNearest(pattern: Pattern, colour: number): number {
	let best = 0;
	let bestDistance = Infinity;
	pattern.threads.forEach((thread, index) => {
		const d =
			((thread.color >> 16) - (colour >> 16)) ** 2 +
			(((thread.color >> 8) & 255) - ((colour >> 8) & 255)) ** 2 +
			((thread.color & 255) - (colour & 255)) ** 2;
		if (d < bestDistance) {
			bestDistance = d;
			best = index;
		}
	});
	return best;
}

export interface StitchStats {
	stitches: number;
	colourChanges: number;
	/** Longest step from one needle hole to the next, mm. */
	longestStitchMm: number;
}

export function stitchStats(pattern: Pattern): StitchStats {
	let stitches = 0;
	let colourChanges = 0;
	let longest = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (command === Command.ColorChange) colourChanges++;
		if (command !== Command.Stitch) continue;
		stitches++;
		if (i > 0 && pattern.commands[i - 1] === Command.Stitch) {
			longest = max(
				longest,
				hypot(pattern.xs[i] - pattern.xs[i - 1], pattern.ys[i] - pattern.ys[i - 1]) / 10,
			);
		}
	}
	return { stitches, colourChanges, longestStitchMm: longest };
}
