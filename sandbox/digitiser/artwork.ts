import sharp, { type Metadata } from 'sharp';

import { DigitiseError } from './errors';
import { max, min, round, sqrt } from './math';

/** Artwork file extensions the digitising workflow accepts. */
export const artworkInputs = ['jpg', 'jpeg', 'png', 'svg', 'webp'];

export type ArtworkType = 'png' | 'jpeg' | 'webp' | 'svg';

/** Largest source image sharp may open: above this a small file is treated as a decompression bomb. */
export const maxInputPixels = 50_000_000;
/** Finest working grid: a needle cannot place detail finer than about 0.15 mm. */
const finestPixelMm = 0.15;
/** Working raster cap, so a 300 mm design never needs more than a few megapixels. */
const maxWorkingPixels = 4_000_000;
/** Taller than any embroidery hoop; a sign of a wrongly proportioned artwork. */
const maxHeightMm = 1000;

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	return signature.every((value, index) => bytes[offset + index] === value);
}

/** The artwork's type judged by its content, never by its name. */
export function detectArtwork(bytes: Uint8Array): ArtworkType | null {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
	if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
	return looksLikeSvg(bytes) ? 'svg' : null;
}

function looksLikeSvg(bytes: Uint8Array): boolean {
	let text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 8192));
	text = text.replace(/^\uFEFF/, '');
	// Skip the prologue an SVG may carry before its root element.
	for (;;) {
		text = text.trimStart();
		const prologue = /^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(text);
		if (!prologue) break;
		text = text.slice(prologue[0].length);
	}
	return /^<svg[\s>]/.test(text) || /^<[A-Za-z_][\w.-]*:svg[\s>]/.test(text);
}

/** The artwork as an RGBA raster on the working grid. */
export interface Artwork {
	type: ArtworkType;
	width: number;
	height: number;
	/** Interleaved RGBA, 4 bytes a pixel, rows top to bottom. */
	rgba: Uint8Array;
	/** Size of one working pixel in millimetres. */
	pixelMm: number;
	widthMm: number;
	heightMm: number;
	sourceWidth: number;
	sourceHeight: number;
}

function describe(type: ArtworkType): string {
	return type === 'svg' ? 'SVG' : type.toUpperCase();
}

function decodeFailure(type: ArtworkType, error: unknown): DigitiseError {
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

/** Decodes and resamples the artwork so one pixel is about what a needle can resolve at `widthMm`. */
export async function loadArtwork(bytes: Uint8Array, widthMm: number): Promise<Artwork> {
	const type = detectArtwork(bytes);
	if (!type) {
		throw new DigitiseError(
			'unreadable_artwork',
			'The file is not a PNG, JPEG, WebP or SVG image (judged by its content, not its name).',
		);
	}
	const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
	const sourceWidth = turned ? metadata.height : metadata.width;
	const sourceHeight = turned ? metadata.width : metadata.height;
	if (type !== 'svg' && sourceWidth * sourceHeight > maxInputPixels) {
		throw new DigitiseError(
			'artwork_too_large',
			`The artwork is ${sourceWidth} x ${sourceHeight} pixels; images over ${maxInputPixels / 1_000_000} megapixels are refused. Send a smaller image.`,
		);
	}
	const heightMm = (widthMm * sourceHeight) / sourceWidth;
	if (heightMm > maxHeightMm) {
		throw new DigitiseError(
			'artwork_too_large',
			`At ${widthMm} mm wide the artwork would be ${round(heightMm)} mm tall, more than any hoop; crop it or choose a smaller width.`,
		);
	}
	const pixelMm = max(finestPixelMm, sqrt((widthMm * heightMm) / maxWorkingPixels));
	const width = max(1, round(widthMm / pixelMm));
	const height = max(1, round(heightMm / pixelMm));
	// SVG is drawn at a density that yields at least the working width, so edges stay crisp.
	const density = type === 'svg' ? min(50_000, max(1, (72 * width) / sourceWidth)) : undefined;
	try {
		const { data } = await sharp(input, { limitInputPixels: maxInputPixels, density, failOn: 'error' })
			.timeout({ seconds: 60 })
			.autoOrient()
			.resize(width, height, { fit: 'fill' })
			// A median over 0.75 mm removes photo noise and JPEG speckle but keeps edges straight.
			.median(5)
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
			pixelMm: widthMm / width,
			widthMm,
			heightMm: (widthMm / width) * height,
			sourceWidth,
			sourceHeight,
		};
	} catch (error) {
		throw decodeFailure(type, error);
	}
}
