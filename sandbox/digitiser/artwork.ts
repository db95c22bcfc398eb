import sharp, { type Metadata } from 'sharp';

import { findForeground } from './background';
import { detectArtwork, type ArtworkType } from './detect';
import { DigitiseError } from './errors';
import { ceil, floor, max, min, round, sqrt } from './math';
import { croppedSvg, makeSvgSafe, wholeSvg, type SafeSvg } from './svg';

/** Artwork file extensions the digitising workflow accepts. */
export const artworkInputs = ['jpg', 'jpeg', 'png', 'svg', 'webp'];

/** Largest source image sharp may open: above this a small file is treated as a decompression bomb. */
export const maxInputPixels = 50_000_000;
/**
 * Longest side over shortest a canvas may have. Checked from the header before any pixel is decoded: a
 * 1 x 40,000,000 PNG of 292 KB took 58 s of an engine process to decode before its design was refused as too tall.
 */
const maxSideRatio = 100;
/** Finest working grid: a needle cannot place detail finer than about 0.15 mm. */
const finestPixelMm = 0.15;
/** Working raster cap, so a 300 mm design never needs more than a few megapixels. */
const maxWorkingPixels = 4_000_000;
/** Pixels of the coarse first look that finds the design within the canvas. */
const probePixels = 1_000_000;
/** Taller than any embroidery hoop; a sign of a wrongly proportioned artwork. */
const maxHeightMm = 1000;

/** The artwork's design (its margins and backdrop cropped away) as an RGBA raster on the working grid. */
export interface Artwork {
	type: ArtworkType;
	width: number;
	height: number;
	/** Interleaved RGBA, 4 bytes a pixel, rows top to bottom. */
	rgba: Uint8Array;
	/** Size of one working pixel in millimetres, when the design's content is `widthMm` wide. */
	pixelMm: number;
	/**
	 * How much taller than wide a working pixel is on the fabric: the grid's width and height are
	 * each rounded to whole pixels, so they scale the source by slightly different amounts (up to
	 * half a pixel over the design's height). `pixelMm` is a pixel's width.
	 */
	pixelAspect: number;
	sourceWidth: number;
	sourceHeight: number;
	/** True when a thin frame along the canvas edge was taken for the picture's border and left out. */
	frameLeftOut: boolean;
	/** True when the source is a raster of a few exact colours (see `isFlat`), kept exact on the grid. */
	flat: boolean;
	/**
	 * A flat raster's design at its own pixels, where they are finer than the working grid: where
	 * a line's edges lie between two working pixels.
	 */
	fine?: FineRaster;
}

/** The design's part of a flat source at the source's own pixels. */
export interface FineRaster {
	/** The whole source, oriented: RGBA, `stride` pixels a row. */
	rgba: Uint8Array;
	stride: number;
	/** The design's box within it, in source pixels. */
	x0: number;
	y0: number;
	width: number;
	height: number;
	/** Source pixels a working pixel spans, across and down. */
	scaleX: number;
	scaleY: number;
}

/** How much finer than the working grid a source must be for its own pixels to be kept. */
const minFineScale = 1.2;

function describe(type: ArtworkType): string {
	return type === 'svg' ? 'SVG' : type.toUpperCase();
}

function decodeFailure(type: ArtworkType, error: unknown): DigitiseError {
	if (error instanceof DigitiseError) return error;
	const reason = (error as Error).message ?? String(error);
	if (/pixel limit/i.test(reason)) {
		return new DigitiseError(
			'artwork_too_large',
			`The artwork has too many pixels (over ${maxInputPixels / 1_000_000} megapixels); send a smaller image.`,
		);
	}
	return new DigitiseError(
		'unreadable_artwork',
		`The ${describe(type)} artwork could not be decoded (${reason.split('\n')[0]}); export it again as a valid image.`,
	);
}

export function emptyArtwork(widthMm: number): DigitiseError {
	return new DigitiseError(
		'empty_artwork',
		`The artwork has nothing to stitch at ${widthMm} mm: it is blank, fully transparent or ` +
			`only background, or its details are too small to sew (try a larger width_mm).`,
	);
}

/** A part of the source canvas, in source pixels (CSS pixels for SVG). */
interface CanvasBox {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** The decoded source, ready to draw any part of its canvas at any size. */
interface Source {
	type: ArtworkType;
	input: Buffer;
	svg: SafeSvg | null;
	width: number;
	height: number;
	/**
	 * A raster drawn in a few exact colours (no anti-aliasing, no shading): resampled by nearest
	 * pixel and not smoothed, so its colours stay exact and its thin lines whole.
	 */
	flat?: boolean;
	/** A flat raster's own pixels, oriented, RGBA: decoded to count its colours, kept for its edges. */
	pixels?: Uint8Array;
}

/** An RGBA pixel as one number: fully transparent pixels are one colour whatever their RGB. */
export function colourKey(rgba: Uint8Array, offset: number): number {
	if (rgba[offset + 3] === 0) return -1;
	return (
		((rgba[offset] << 24) |
			(rgba[offset + 1] << 16) |
			(rgba[offset + 2] << 8) |
			rgba[offset + 3]) >>>
		0
	);
}

/** Most distinct colours (RGBA) a raster may have and still count as flat artwork. */
const maxFlatColours = 64;
/** Largest raster whose colours are counted; a bigger one is treated as shaded. */
const maxCountedPixels = 16_000_000;

/** True when the raster source has at most `maxFlatColours` distinct colours. */
async function isFlat(source: Source): Promise<boolean> {
	if (source.svg || source.width * source.height > maxCountedPixels) return false;
	let data: Buffer;
	try {
		// No wall-time limit of its own: the work is bounded before it starts (filter budget, pixel limits), and
		// what remains by the engine pool's job limit, which stops the process.
		data = await sharp(source.input, { limitInputPixels: maxInputPixels, failOn: 'error' })
			.autoOrient()
			.toColourspace('srgb')
			.ensureAlpha()
			.raw()
			.toBuffer();
	} catch {
		// Drawing it reports what is wrong with the file; here it is just not known to be flat.
		return false;
	}
	const seen = new Set<number>();
	for (let o = 0; o < data.length; o += 4) {
		const value = colourKey(data, o);
		if (seen.has(value)) continue;
		seen.add(value);
		if (seen.size > maxFlatColours) return false;
	}
	source.pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
	return true;
}

/**
 * Decodes the artwork and finds its design: the canvas is first drawn whole on a coarse grid
 * to see where the design lies within margins, transparent borders or a plain backdrop; then
 * only that part (with a few pixels of backdrop around it) is drawn, scaled so the design
 * itself is `widthMm` wide, on a grid of about what a needle can resolve.
 */
export async function loadArtwork(bytes: Uint8Array, widthMm: number): Promise<Artwork> {
	const source = await openSource(bytes);
	source.flat = await isFlat(source);
	const { width: sourceWidth, height: sourceHeight } = source;
	const probeScale = sqrt(probePixels / (sourceWidth * sourceHeight));
	const probeWidth = max(1, round(sourceWidth * (source.svg ? probeScale : min(1, probeScale))));
	const probeHeight = max(1, round(sourceHeight * (source.svg ? probeScale : min(1, probeScale))));
	const whole = { x: 0, y: 0, width: sourceWidth, height: sourceHeight };
	const probe = await draw(source, whole, probeWidth, probeHeight, false);
	const foreground = findForeground(probe);
	const found = contentBox(foreground.mask, probeWidth, probeHeight);
	if (!found) throw emptyArtwork(widthMm);
	const perProbeX = sourceWidth / probeWidth;
	const perProbeY = sourceHeight / probeHeight;
	const contentWidth = (found.maxX + 1 - found.minX) * perProbeX;
	const contentHeight = (found.maxY + 1 - found.minY) * perProbeY;
	const heightMm = (widthMm * contentHeight) / contentWidth;
	if (heightMm > maxHeightMm) {
		throw new DigitiseError(
			'artwork_too_large',
			`At ${widthMm} mm wide the design would be ${round(heightMm)} mm tall, more than any ` +
				`hoop; crop it or choose a smaller width.`,
		);
	}
	const pixelMm = max(finestPixelMm, sqrt((widthMm * heightMm) / maxWorkingPixels));
	const pixelsPerSource = widthMm / contentWidth / pixelMm;
	// Two probe pixels and three working pixels of margin: the probe only knows the edge to a pixel,
	// and background removal needs backdrop all round.
	const marginX = 2 * perProbeX + 3 / pixelsPerSource;
	const marginY = 2 * perProbeY + 3 / pixelsPerSource;
	let crop: CanvasBox = {
		x: max(0, found.minX * perProbeX - marginX),
		y: max(0, found.minY * perProbeY - marginY),
		width: 0,
		height: 0,
	};
	crop.width = min(sourceWidth, (found.maxX + 1) * perProbeX + marginX) - crop.x;
	crop.height = min(sourceHeight, (found.maxY + 1) * perProbeY + marginY) - crop.y;
	if (!source.svg) crop = wholePixels(crop, sourceWidth, sourceHeight);
	const width = max(1, round(crop.width * pixelsPerSource));
	const height = max(1, round(crop.height * pixelsPerSource));
	const drawn = await draw(source, crop, width, height, true);
	let fine: FineRaster | undefined;
	if (source.pixels && crop.width > minFineScale * width) {
		fine = {
			rgba: source.pixels,
			stride: sourceWidth,
			x0: crop.x,
			y0: crop.y,
			width: crop.width,
			height: crop.height,
			scaleX: crop.width / width,
			scaleY: crop.height / height,
		};
	}
	return {
		...drawn,
		...(fine ? { fine } : {}),
		pixelMm,
		pixelAspect: crop.height / height / (crop.width / width),
		sourceWidth,
		sourceHeight,
		frameLeftOut: foreground.framePixels > 0,
		flat: source.flat === true,
	};
}

function wholePixels(box: CanvasBox, sourceWidth: number, sourceHeight: number): CanvasBox {
	const x = max(0, floor(box.x));
	const y = max(0, floor(box.y));
	return {
		x,
		y,
		width: min(sourceWidth, ceil(box.x + box.width)) - x,
		height: min(sourceHeight, ceil(box.y + box.height)) - y,
	};
}

/** Bounds of the set pixels of a mask, or null when none is set. */
export function contentBox(
	mask: Uint8Array,
	width: number,
	height: number,
): { minX: number; minY: number; maxX: number; maxY: number } | null {
	let minX = width;
	let minY = height;
	let maxX = -1;
	let maxY = -1;
	for (let y = 0; y < height; y++) {
		const row = y * width;
		for (let x = 0; x < width; x++) {
			if (!mask[row + x]) continue;
			if (x < minX) minX = x;
			if (x > maxX) maxX = x;
			if (y < minY) minY = y;
			maxY = y;
		}
	}
	return maxX < 0 ? null : { minX, minY, maxX, maxY };
}

async function openSource(bytes: Uint8Array): Promise<Source> {
	const type = detectArtwork(bytes);
	if (!type) {
		throw new DigitiseError(
			'unreadable_artwork',
			'The file is not a PNG, JPEG, WebP or SVG image (judged by its content, not its name).',
		);
	}
	// SVG is checked and rewritten before librsvg sees a byte of it.
	const svg = type === 'svg' ? await makeSvgSafe(bytes) : null;
	const input = svg ? wholeSvg(svg) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let metadata: Metadata;
	try {
		// Reading the header decodes no pixels, so the size check below can name the dimensions.
		metadata = await sharp(input, { limitInputPixels: false }).metadata();
	} catch (error) {
		throw decodeFailure(type, error);
	}
	if (metadata.format !== type || !metadata.width || !metadata.height) {
		throw new DigitiseError(
			'unreadable_artwork',
			`The file starts like a ${describe(type)} image but its content is not a valid ${describe(type)}.`,
		);
	}
	// EXIF orientations 5-8 turn the picture a quarter, swapping its sides.
	const turned = (metadata.orientation ?? 1) >= 5;
	const width = turned ? metadata.height : metadata.width;
	const height = turned ? metadata.width : metadata.height;
	// An SVG is drawn at any size, but a canvas this large at one dot per inch is a sign of a broken file.
	const pixels = svg ? (width / 72) * (height / 72) : width * height;
	if (pixels > maxInputPixels) {
		throw new DigitiseError(
			'artwork_too_large',
			`The artwork is ${width} x ${height} pixels; images over ${maxInputPixels / 1_000_000} ` +
				`megapixels are refused. Send a smaller image.`,
		);
	}
	if (Math.max(width, height) > maxSideRatio * Math.min(width, height)) {
		throw new DigitiseError(
			'artwork_too_large',
			`The artwork is ${width} x ${height} pixels, one side more than ${maxSideRatio} times the ` +
				`other; no embroidery is that long and thin. Crop it to the design.`,
		);
	}
	return { type, input, svg, width, height };
}

/** Draws part of the canvas as a `width` x `height` RGBA raster; `smooth` takes out photo noise. */
async function draw(
	source: Source,
	box: CanvasBox,
	width: number,
	height: number,
	smooth: boolean,
): Promise<{ type: ArtworkType; width: number; height: number; rgba: Uint8Array }> {
	const { type } = source;
	try {
		let image = source.svg
			? sharp(croppedSvg(source.svg, box, source.width, source.height, width, height), {
					limitInputPixels: maxInputPixels,
					failOn: 'error',
				})
			: sharp(source.input, { limitInputPixels: maxInputPixels, failOn: 'error' })
					.autoOrient()
					.extract({ left: box.x, top: box.y, width: box.width, height: box.height });
		// As above: bounded by the engine pool's job limit, not failed early for waiting on a busy machine.
		image = image.resize(width, height, {
			fit: 'fill',
			...(source.flat ? { kernel: 'nearest' as const } : {}),
		});
		// A median over 0.75 mm removes photo noise and JPEG speckle but keeps edges straight.
		if (smooth && !source.flat) image = image.median(5);
		const { data } = await image
			// Greyscale, 16-bit and CMYK sources all become 8-bit sRGB with alpha: 4 bytes a pixel.
			.toColourspace('srgb')
			.ensureAlpha()
			.raw()
			.toBuffer({ resolveWithObject: true });
		return {
			type,
			width,
			height,
			rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
		};
	} catch (error) {
		throw decodeFailure(type, error);
	}
}
