import sharp, { type Sharp } from 'sharp';

import { encodePreview, previewFormats, type PreviewFormat } from './previewEncoding';
import { stitchBounds } from './metrics';
import { Command, type Bounds, type Pattern } from './pattern';
import { ThreadRaster, type Rgb } from './raster';
import { watermarkLayer } from './watermark';

export type { PreviewFormat } from './previewEncoding';

export interface PreviewOptions {
	/** Tile the locked-preview watermark across the image. */
	watermark?: boolean;
	/** Default png; png and webp have a transparent background, jpeg a white one. */
	format?: PreviewFormat;
	/** Length of the longer side in pixels, default 1024. */
	maxSizePx?: number;
	/**
	 * Most pixels the rasteriser may visit (default about 1.5 s of drawing); beyond it the
	 * design is drawn smaller and scaled up, so no file can stall a worker.
	 */
	pixelBudget?: number;
}

export interface Preview {
	bytes: Buffer;
	mimeType: string;
	extension: string;
	width: number;
	height: number;
}

export const DEFAULT_PREVIEW_SIZE_PX = 1024;
export const MIN_PREVIEW_SIZE_PX = 16;
export const MAX_PREVIEW_SIZE_PX = 4096;
/** Typical machine embroidery thread (40 wt) lies about 0.4 mm wide, in 0.1 mm units. */
const THREAD_WIDTH = 4;
/** Margin around the design as a share of the longer side. */
const PADDING_SHARE = 0.04;
const WHITE: Rgb = { r: 255, g: 255, b: 255 };

/** Colours for designs whose file carries none (DST, EXP): distinct, calm, readable on white. */
export const defaultPreviewPalette: readonly number[] = [
	0x1f4e79, 0xc0392b, 0xe0a526, 0x2e8b57, 0x7d3c98, 0xe67e22, 0x138d90, 0xd35d8a, 0x5d6d7e,
	0x8b5a2b,
];

function toRgb(colour: number): Rgb {
	return { r: (colour >> 16) & 0xff, g: (colour >> 8) & 0xff, b: colour & 0xff };
}

function blockColours(pattern: Pattern): Rgb[] {
	let blocks = 1;
	for (let i = 0; i < pattern.length; i++)
		if (pattern.commands[i] === Command.ColorChange) blocks++;
	const colours: Rgb[] = [];
	for (let block = 0; block < blocks; block++) {
		const thread = pattern.threads[block];
		colours.push(
			toRgb(thread ? thread.color : defaultPreviewPalette[block % defaultPreviewPalette.length]),
		);
	}
	return colours;
}

function checkOptions(options: PreviewOptions): { format: PreviewFormat; maxSizePx: number } {
	const format = options.format ?? 'png';
	if (!Object.hasOwn(previewFormats, format)) {
		throw new Error(`Preview format "${format}" is not supported; use png, webp or jpeg.`);
	}
	const maxSizePx = options.maxSizePx ?? DEFAULT_PREVIEW_SIZE_PX;
	if (
		!Number.isInteger(maxSizePx) ||
		maxSizePx < MIN_PREVIEW_SIZE_PX ||
		maxSizePx > MAX_PREVIEW_SIZE_PX
	) {
		throw new Error(
			`Preview size must be a whole number of pixels from ${MIN_PREVIEW_SIZE_PX} ` +
				`to ${MAX_PREVIEW_SIZE_PX}, got ${maxSizePx}.`,
		);
	}
	const { pixelBudget } = options;
	if (pixelBudget !== undefined && !(Number.isFinite(pixelBudget) && pixelBudget > 0)) {
		throw new Error(`Preview pixel budget must be a positive number, got ${pixelBudget}.`);
	}
	return { format, maxSizePx };
}

interface PreviewLayout {
	width: number;
	height: number;
	/** Pixels per 0.1 mm. */
	scale: number;
	originX: number;
	originY: number;
	/** Half the thread's width in pixels. */
	radius: number;
}

/** Places the design, with its thread width and padding, in an image whose longer side is sizePx. */
function layoutFor(bounds: Bounds, sizePx: number): PreviewLayout {
	const padding = Math.round(sizePx * PADDING_SHARE);
	// The thread's own width belongs to the design's extent, so edge stitches are not clipped.
	const designWidth = bounds.maxX - bounds.minX + THREAD_WIDTH;
	const designHeight = bounds.maxY - bounds.minY + THREAD_WIDTH;
	const scale = (sizePx - 2 * padding) / Math.max(designWidth, designHeight);
	const width = Math.max(1, Math.min(sizePx, Math.round(designWidth * scale) + 2 * padding));
	const height = Math.max(1, Math.min(sizePx, Math.round(designHeight * scale) + 2 * padding));
	return {
		width,
		height,
		scale,
		originX: (width - designWidth * scale) / 2 + (THREAD_WIDTH / 2 - bounds.minX) * scale,
		originY: (height - designHeight * scale) / 2 + (THREAD_WIDTH / 2 - bounds.minY) * scale,
		// Below one pixel a thread would fade to nothing, so tiny previews keep a hairline.
		radius: Math.max(0.5, (THREAD_WIDTH / 2) * scale),
	};
}

/**
 * Calls visit for every length of thread that shows on the fabric: from one needle hole to
 * the next, in sewing order. Jumps, trims and colour changes start a fresh run (their
 * threads are cut away or hidden); a stop only pauses the machine, so the run goes on.
 */
function forEachSewnStitch(
	pattern: Pattern,
	visit: (from: number, to: number, block: number) => void,
): void {
	const { commands, length } = pattern;
	let block = 0;
	let needle = -1;
	for (let i = 0; i < length; i++) {
		const command = commands[i];
		if (command === Command.Stitch) {
			if (needle >= 0) visit(needle, i, block);
			needle = i;
		} else if (command !== Command.Stop) {
			if (command === Command.ColorChange) block++;
			needle = -1;
		}
	}
}

/** Total length of the drawn stitches in 0.1 mm, and how many there are. */
function sewnLength(pattern: Pattern): { length: number; stitches: number } {
	const { xs, ys } = pattern;
	let length = 0;
	let stitches = 0;
	forEachSewnStitch(pattern, (from, to) => {
		const dx = xs[to] - xs[from];
		const dy = ys[to] - ys[from];
		length += Math.sqrt(dx * dx + dy * dy);
		stitches++;
	});
	return { length, stitches };
}

/** Pixels the rasteriser may visit for one preview by default: about 1.5 s of drawing. */
export const DEFAULT_PIXEL_BUDGET = 120_000_000;

/**
 * The largest drawing size up to sizePx whose estimated pixel work fits the budget, so a
 * pathological file (millions of stitches each spanning the design) cannot stall a worker.
 */
function affordableSize(
	bounds: Bounds,
	sizePx: number,
	sewn: { length: number; stitches: number },
	pixelBudget: number,
): number {
	let size = sizePx;
	for (;;) {
		const { scale, radius } = layoutFor(bounds, size);
		const reach = radius + 0.5;
		const work = (sewn.length * scale + sewn.stitches * 2 * reach) * (2 * reach + 1);
		if (work <= pixelBudget || size <= MIN_PREVIEW_SIZE_PX) return size;
		size = Math.max(MIN_PREVIEW_SIZE_PX, Math.floor(size * 0.8));
	}
}

/**
 * Draws the sewn stitches in thread colours: the design scaled so its longer side (plus
 * padding) fills `maxSizePx`, colour blocks in sewing order, jumps and trims left out.
 * For extreme designs the raster may be smaller than asked; renderPreview scales it up.
 */
export function rasterisePattern(
	pattern: Pattern,
	maxSizePx = DEFAULT_PREVIEW_SIZE_PX,
	pixelBudget = DEFAULT_PIXEL_BUDGET,
): ThreadRaster {
	const bounds = stitchBounds(pattern);
	if (!bounds) return new ThreadRaster(maxSizePx, maxSizePx);
	const { width, height, scale, originX, originY, radius } = layoutFor(
		bounds,
		affordableSize(bounds, maxSizePx, sewnLength(pattern), pixelBudget),
	);
	const raster = new ThreadRaster(width, height);
	const colours = blockColours(pattern);
	const { xs, ys } = pattern;
	forEachSewnStitch(pattern, (from, to, block) =>
		raster.drawStitch(
			originX + xs[from] * scale,
			originY + ys[from] * scale,
			originX + xs[to] * scale,
			originY + ys[to] * scale,
			radius,
			colours[block],
		),
	);
	return raster;
}

/** The size of the finished preview: the full layout, even when the raster was drawn smaller. */
function previewSize(pattern: Pattern, maxSizePx: number): { width: number; height: number } {
	const bounds = stitchBounds(pattern);
	return bounds ? layoutFor(bounds, maxSizePx) : { width: maxSizePx, height: maxSizePx };
}

/** A design drawn at its preview size, ready to encode as often as asked. */
interface DrawnPreview {
	image: Sharp;
	format: PreviewFormat;
	width: number;
	height: number;
}

function drawPreview(pattern: Pattern, options: PreviewOptions): DrawnPreview {
	const { format, maxSizePx } = checkOptions(options);
	const raster = rasterisePattern(pattern, maxSizePx, options.pixelBudget);
	const { width, height } = previewSize(pattern, maxSizePx);
	const rgba = raster.toRgba(format === 'jpeg' ? WHITE : undefined);
	let image = sharp(rgba, { raw: { width: raster.width, height: raster.height, channels: 4 } });
	if (raster.width !== width || raster.height !== height)
		image = image.resize(width, height, { fit: 'fill' });
	return { image, format, width, height };
}

/** One encoding of a drawn preview, from a clone of its pipeline, so the drawing can be encoded again. */
async function encodeDrawn(drawn: DrawnPreview, watermark = false): Promise<Preview> {
	const { format, width, height } = drawn;
	const image = drawn.image.clone();
	const layered = watermark ? image.composite([await watermarkLayer(width, height)]) : image;
	const bytes = await encodePreview(layered, format);
	return { bytes, ...previewFormats[format], width, height };
}

/** Renders the stitch preview as PNG (default), WebP or JPEG, optionally watermarked. */
export async function renderPreview(
	pattern: Pattern,
	options: PreviewOptions = {},
): Promise<Preview> {
	return await encodeDrawn(drawPreview(pattern, options), options.watermark);
}

/**
 * The clean and the watermarked preview of one design, the same bytes as two renderPreview calls give:
 * the stitches are drawn once, which is most of the work, and encoded twice.
 */
export async function renderPreviewPair(
	pattern: Pattern,
	options: Omit<PreviewOptions, 'watermark'> = {},
): Promise<{ original: Preview; watermarked: Preview }> {
	const drawn = drawPreview(pattern, options);
	const [original, watermarked] = await Promise.all([
		encodeDrawn(drawn, false),
		encodeDrawn(drawn, true),
	]);
	return { original, watermarked };
}
