import { channelsToLab, deltaE76, type Lab } from '../engine';
import { max, min, round } from './math';

/** Pixels more transparent than this are background. */
const opaqueAlpha = 128;
/** How far (Lab units) a pixel may stray from the background colour and still count as background. */
const backgroundTolerance = 14;
/** Share of the border that must be one colour for the image to have a plain background. */
const plainBorderShare = 0.6;

/** An RGBA raster: 4 bytes a pixel, rows top to bottom. */
export interface Raster {
	width: number;
	height: number;
	rgba: Uint8Array;
}

export interface Foreground {
	/** 1 where the artwork must be stitched, 0 where it is background. */
	mask: Uint8Array;
	pixelCount: number;
	/** The plain background colour that was left unstitched, if any. */
	backgroundRgb: number | null;
	/** Pixels of the background colour enclosed by the design (letter counters, ring centres) also left unstitched. */
	enclosedBackground: number;
	/** Opaque pixels of a thin frame along the picture's edge, around a white backdrop, left out. */
	framePixels: number;
}

/** Deepest frame along the edge (as a share of the shorter side, at least 2 px) taken for the picture's border. */
const maxFrameShare = 0.01;

/**
 * Separates what to stitch from the background: transparent pixels, and a plain
 * colour that touches the border and surrounds the design (the usual white or flat backdrop).
 * The same colour enclosed by the design (inside an O, the middle of a ring) is the
 * fabric showing through too, so it is left unstitched as well. A thin frame along the
 * picture's edge around a white backdrop (a hairline border, a screenshot's edge) is the
 * picture's border, not part of the design, and is left out too.
 */
export function findForeground(artwork: Raster): Foreground {
	const { width, height, rgba } = artwork;
	const size = width * height;
	const mask = new Uint8Array(size);
	const markOpaque = () => {
		for (let i = 0; i < size; i++) mask[i] = rgba[i * 4 + 3] >= opaqueAlpha ? 1 : 0;
	};
	markOpaque();

	const frame = thinFrameDepth(artwork, mask);
	let framePixels = 0;
	if (frame > 0) {
		for (let depth = 0; depth < frame; depth++) {
			for (const i of ringIndices(width, height, depth)) {
				framePixels += mask[i];
				mask[i] = 0;
			}
		}
	}
	const backgroundLab = plainBorderColour(artwork, mask, frame);
	let backgroundRgb: number | null = null;
	let enclosedBackground = 0;
	const matcher = backgroundLab ? new BackdropMatcher(backgroundLab.lab) : null;
	const flooded = backgroundLab && matcher ? floodBackground(artwork, mask, matcher, frame) : 0;
	if (backgroundLab && flooded > 0 && !mask.includes(1) && !isPaperWhite(backgroundLab.lab)) {
		// One colour edge to edge is a filled shape (a badge, a label), not a backdrop; white is the paper.
		markOpaque();
		framePixels = 0;
	} else if (backgroundLab && matcher && flooded > 0) {
		backgroundRgb = backgroundLab.rgb;
		for (let i = 0; i < size; i++) {
			if (mask[i] && matcher.isNear(rgba, i)) {
				mask[i] = 0;
				enclosedBackground++;
			}
		}
	}
	let pixelCount = 0;
	for (let i = 0; i < size; i++) pixelCount += mask[i];
	return { mask, pixelCount, backgroundRgb, enclosedBackground, framePixels };
}

/**
 * How many pixels deep a thin frame runs along the edge: the depth of the first ring, within
 * `maxFrameShare` of the shorter side, that is plain paper white when the outermost ring is not.
 */
function thinFrameDepth(artwork: Raster, mask: Uint8Array): number {
	const outer = plainBorderColour(artwork, mask, 0);
	if (outer && isPaperWhite(outer.lab)) return 0;
	const deepest = max(2, round(maxFrameShare * min(artwork.width, artwork.height)));
	for (let depth = 1; depth <= deepest && 2 * depth < min(artwork.width, artwork.height); depth++) {
		const ring = plainBorderColour(artwork, mask, depth);
		if (ring && isPaperWhite(ring.lab)) return depth;
	}
	return 0;
}

/** Near white and nearly colourless: the paper of a blank artwork. */
function isPaperWhite([lightness, a, b]: Lab): boolean {
	return lightness >= 92 && Math.hypot(a, b) <= 8;
}

/** Remembers, per colour at 6 bits a channel, whether it is near the backdrop: Lab per pixel is too slow. */
class BackdropMatcher {
	private readonly verdicts = new Uint8Array(1 << 18);

	constructor(private readonly lab: Lab) {}

	isNear(rgba: Uint8Array, i: number): boolean {
		const o = i * 4;
		const key = ((rgba[o] >> 2) << 12) | ((rgba[o + 1] >> 2) << 6) | (rgba[o + 2] >> 2);
		let verdict = this.verdicts[key];
		if (verdict === 0) {
			verdict =
				deltaE76(this.lab, channelsToLab(rgba[o], rgba[o + 1], rgba[o + 2])) <= backgroundTolerance
					? 1
					: 2;
			this.verdicts[key] = verdict;
		}
		return verdict === 1;
	}
}

/** The pixels `depth` pixels in from the edge: the border of the picture shrunk by `depth` all round. */
function ringIndices(width: number, height: number, depth: number): number[] {
	const indices: number[] = [];
	const left = depth;
	const right = width - 1 - depth;
	const top = depth;
	const bottom = height - 1 - depth;
	if (left > right || top > bottom) return indices;
	for (let x = left; x <= right; x++) {
		indices.push(top * width + x);
		if (bottom > top) indices.push(bottom * width + x);
	}
	for (let y = top + 1; y < bottom; y++) {
		indices.push(y * width + left);
		if (right > left) indices.push(y * width + right);
	}
	return indices;
}

function plainBorderColour(
	artwork: Raster,
	mask: Uint8Array,
	depth: number,
): { lab: Lab; rgb: number } | null {
	const { width, height, rgba } = artwork;
	const ring = ringIndices(width, height, depth);
	const opaque = ring.filter((i) => mask[i]);
	if (opaque.length === 0) return null;
	// The most common coarse colour on the border is the candidate backdrop.
	const counts = new Map<number, number>();
	for (const i of opaque) {
		const key = ((rgba[i * 4] >> 4) << 8) | ((rgba[i * 4 + 1] >> 4) << 4) | (rgba[i * 4 + 2] >> 4);
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	let bestKey = -1;
	let bestCount = 0;
	for (const [key, count] of counts) {
		if (count > bestCount) {
			bestKey = key;
			bestCount = count;
		}
	}
	let r = 0;
	let g = 0;
	let b = 0;
	let n = 0;
	for (const i of opaque) {
		const key = ((rgba[i * 4] >> 4) << 8) | ((rgba[i * 4 + 1] >> 4) << 4) | (rgba[i * 4 + 2] >> 4);
		if (key !== bestKey) continue;
		r += rgba[i * 4];
		g += rgba[i * 4 + 1];
		b += rgba[i * 4 + 2];
		n++;
	}
	const lab = channelsToLab(r / n, g / n, b / n);
	let near = 0;
	const matcher = new BackdropMatcher(lab);
	for (const i of opaque) if (matcher.isNear(rgba, i)) near++;
	if (near < plainBorderShare * ring.length) return null;
	const rgb = (round(r / n) << 16) | (round(g / n) << 8) | round(b / n);
	return { lab, rgb };
}

/**
 * Clears, from the ring `depth` pixels in from the edge inwards, every opaque pixel close to the
 * backdrop colour; returns how many.
 */
function floodBackground(
	artwork: Raster,
	mask: Uint8Array,
	matcher: BackdropMatcher,
	depth: number,
): number {
	const { width, height, rgba } = artwork;
	const isBackdrop = (i: number) => mask[i] === 1 && matcher.isNear(rgba, i);
	const queue = new Int32Array(width * height);
	let head = 0;
	let tail = 0;
	const visit = (i: number) => {
		if (isBackdrop(i)) {
			mask[i] = 0;
			queue[tail++] = i;
		}
	};
	for (const i of ringIndices(width, height, depth)) visit(i);
	while (head < tail) {
		const i = queue[head++];
		const x = i % width;
		if (x > 0) visit(i - 1);
		if (x < width - 1) visit(i + 1);
		if (i >= width) visit(i - width);
		if (i < width * (height - 1)) visit(i + width);
	}
	return tail;
}
