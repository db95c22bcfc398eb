import sharp from 'sharp';

import { encodePreview, previewFormats, type PreviewFormat } from './encode';
import { stitchBounds } from './metrics';
import { Command, type Pattern } from './pattern';
import { ThreadRaster, type Rgb } from './raster';
import { watermarkLayer } from './watermark';

export type { PreviewFormat } from './encode';

export interface PreviewOptions {
	/** Tile the locked-preview watermark across the image. */
	watermark?: boolean;
	/** Default png; png and webp have a transparent background, jpeg a white one. */
	format?: PreviewFormat;
	/** Length of the longer side in pixels, default 1024. */
	maxSizePx?: number;
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
	0x1f4e79, 0xc0392b, 0xe0a526, 0x2e8b57, 0x7d3c98, 0xe67e22, 0x138d90, 0xd35d8a, 0x5d6d7e, 0x8b5a2b,
];

function toRgb(colour: number): Rgb {
	return { r: (colour >> 16) & 0xff, g: (colour >> 8) & 0xff, b: colour & 0xff };
}

function blockColours(pattern: Pattern): Rgb[] {
	let blocks = 1;
	for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === Command.ColorChange) blocks++;
	const colours: Rgb[] = [];
	for (let block = 0; block < blocks; block++) {
		const thread = pattern.threads[block];
		colours.push(toRgb(thread ? thread.color : defaultPreviewPalette[block % defaultPreviewPalette.length]));
	}
	return colours;
}

function checkOptions(options: PreviewOptions): { format: PreviewFormat; maxSizePx: number } {
	const format = options.format ?? 'png';
	if (!Object.hasOwn(previewFormats, format)) {
		throw new Error(`Preview format "${format}" is not supported; use png, webp or jpeg.`);
	}
	const maxSizePx = options.maxSizePx ?? DEFAULT_PREVIEW_SIZE_PX;
	if (!Number.isInteger(maxSizePx) || maxSizePx < MIN_PREVIEW_SIZE_PX || maxSizePx > MAX_PREVIEW_SIZE_PX) {
		throw new Error(
			`Preview size must be a whole number of pixels from ${MIN_PREVIEW_SIZE_PX} to ${MAX_PREVIEW_SIZE_PX}, got ${maxSizePx}.`,
		);
	}
	return { format, maxSizePx };
}

/**
 * Draws the sewn stitches in thread colours: the design scaled so its longer side (plus
 * padding) fills `maxSizePx`, colour blocks in sewing order, jumps and trims left out.
 */
export function rasterisePattern(pattern: Pattern, maxSizePx = DEFAULT_PREVIEW_SIZE_PX): ThreadRaster {
	const bounds = stitchBounds(pattern);
	if (!bounds) return new ThreadRaster(maxSizePx, maxSizePx);
	const padding = Math.round(maxSizePx * PADDING_SHARE);
	// The thread's own width belongs to the design's extent, so edge stitches are not clipped.
	const designWidth = bounds.maxX - bounds.minX + THREAD_WIDTH;
	const designHeight = bounds.maxY - bounds.minY + THREAD_WIDTH;
	const scale = (maxSizePx - 2 * padding) / Math.max(designWidth, designHeight);
	const width = Math.max(1, Math.min(maxSizePx, Math.round(designWidth * scale) + 2 * padding));
	const height = Math.max(1, Math.min(maxSizePx, Math.round(designHeight * scale) + 2 * padding));
	const originX = (width - designWidth * scale) / 2 + (THREAD_WIDTH / 2 - bounds.minX) * scale;
	const originY = (height - designHeight * scale) / 2 + (THREAD_WIDTH / 2 - bounds.minY) * scale;
	// Below one pixel a thread would fade to nothing, so tiny previews keep a hairline.
	const radius = Math.max(0.5, (THREAD_WIDTH / 2) * scale);

	const raster = new ThreadRaster(width, height);
	const colours = blockColours(pattern);
	const { xs, ys, commands, length } = pattern;
	let block = 0;
	for (let i = 0; i < length; i++) {
		const command = commands[i];
		if (command === Command.ColorChange) block++;
		// Thread runs between consecutive needle holes; after a jump or trim it starts afresh.
		if (i === 0 || command !== Command.Stitch || commands[i - 1] !== Command.Stitch) continue;
		raster.drawStitch(
			originX + xs[i - 1] * scale,
			originY + ys[i - 1] * scale,
			originX + xs[i] * scale,
			originY + ys[i] * scale,
			radius,
			colours[block],
		);
	}
	return raster;
}

/** Renders the stitch preview as PNG (default), WebP or JPEG, optionally watermarked. */
export async function renderPreview(pattern: Pattern, options: PreviewOptions = {}): Promise<Preview> {
	const { format, maxSizePx } = checkOptions(options);
	const raster = rasterisePattern(pattern, maxSizePx);
	const { width, height } = raster;
	const rgba = raster.toRgba(format === 'jpeg' ? WHITE : undefined);
	let image = sharp(rgba, { raw: { width, height, channels: 4 } });
	if (options.watermark) {
		image = image.composite([await watermarkLayer(width, height)]);
	}
	const bytes = await encodePreview(image, format);
	return { bytes, ...previewFormats[format], width, height };
}
