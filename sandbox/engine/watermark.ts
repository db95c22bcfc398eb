import sharp, { type Metadata, type OverlayOptions } from 'sharp';

import { encodePreview, previewFormatOf } from './previewEncoding';

/** The text tiled across every locked preview. */
export const WATERMARK_TEXT = 'SANDBOX PREVIEW - LOCKED';

/**
 * Glyphs as strokes on a 4 x 6 grid, so the watermark looks the same on every server
 * whatever fonts it has installed.
 */
const GLYPHS: Record<string, string> = {
	S: 'M4 0.8L3 0L1 0L0 1L0 2.2L1 3L3 3L4 3.8L4 5L3 6L1 6L0 5.2',
	A: 'M0 6L2 0L4 6M0.7 4L3.3 4',
	N: 'M0 6L0 0L4 6L4 0',
	D: 'M0 0L0 6L2.5 6L4 4.5L4 1.5L2.5 0Z',
	B: 'M0 3L3 3L4 4L4 5L3 6L0 6L0 0L2.8 0L3.7 0.8L3.7 2.2L3 3',
	O: 'M1 0L3 0L4 1L4 5L3 6L1 6L0 5L0 1Z',
	X: 'M0 0L4 6M4 0L0 6',
	P: 'M0 6L0 0L3 0L4 1L4 2L3 3L0 3',
	R: 'M0 6L0 0L3 0L4 1L4 2L3 3L0 3M2 3L4 6',
	E: 'M4 0L0 0L0 6L4 6M0 3L3 3',
	V: 'M0 0L2 6L4 0',
	I: 'M1 0L3 0M2 0L2 6M1 6L3 6',
	W: 'M0 0L1 6L2 2.5L3 6L4 0',
	L: 'M0 0L0 6L4 6',
	C: 'M4 1L3 0L1 0L0 1L0 5L1 6L3 6L4 5',
	K: 'M0 0L0 6M4 0L0 3.5M1.3 2.5L4 6',
	'-': 'M1 3L3 3',
	' ': '',
};
const GLYPH_ADVANCE = 6;
const CAP_HEIGHT = 6;

function textPath(text: string): string {
	return [...text]
		.map((character, index) => {
			const glyph = GLYPHS[character];
			if (glyph === undefined)
				throw new Error(`The watermark font has no glyph for "${character}".`);
			return glyph ? `<path transform="translate(${index * GLYPH_ADVANCE} 0)" d="${glyph}"/>` : '';
		})
		.join('');
}

/**
 * An SVG of the given size covered with the watermark text in diagonal rows, every other
 * row shifted by half a repeat, close enough that any useful crop still carries it.
 */
function watermarkSvg(width: number, height: number): Buffer {
	const capPx = Math.max(7, Math.round(Math.max(width, height) / 48));
	const unit = capPx / CAP_HEIGHT;
	const textUnits = (WATERMARK_TEXT.length + 2) * GLYPH_ADVANCE;
	const tileWidth = textUnits * unit;
	const rowHeight = capPx * 3.2;
	const text = textPath(WATERMARK_TEXT);
	const row = (x: number, y: number) =>
		`<g transform="translate(${x} ${y}) scale(${unit})">` +
		`<g stroke="#000" stroke-opacity="0.3" stroke-width="2.4">${text}</g>` +
		`<g stroke="#fff" stroke-opacity="0.6" stroke-width="1">${text}</g></g>`;
	const svg =
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
		(`<defs><pattern id="watermark" patternUnits="userSpaceOnUse" width="${tileWidth}" ` +
			`height="${rowHeight * 2}" patternTransform="rotate(-30)">`) +
		`<g fill="none" stroke-linecap="round" stroke-linejoin="round">` +
		row(0, rowHeight / 2 - capPx / 2) +
		row(tileWidth / 2, rowHeight * 1.5 - capPx / 2) +
		row(-tileWidth / 2, rowHeight * 1.5 - capPx / 2) +
		`</g></pattern></defs>` +
		`<rect width="${width}" height="${height}" fill="url(#watermark)"/></svg>`;
	return Buffer.from(svg);
}

/**
 * Rendered overlays by the size they were drawn at: drawing the SVG costs far more than compositing it.
 * The pattern's size follows an image's longer side and its tiles are laid from the top-left corner, so
 * every image with the same longer side can take the top-left of one square drawing, whatever its other
 * side (every default preview: 1024 px). That is shared up to `SHARED_SIDE_MAX_PX`; past it a square
 * costs far more than the image (4096 x 100 would draw 64 MB), so such an image is drawn at its own size.
 */
const overlayCache = new Map<string, Promise<Buffer>>();
const OVERLAY_CACHE_SIZE = 4;
const SHARED_SIDE_MAX_PX = 1024;

/** The watermark as a sharp composite layer covering a whole image of the given size. */
export async function watermarkLayer(width: number, height: number): Promise<OverlayOptions> {
	const side = Math.max(width, height);
	const [drawnWidth, drawnHeight] = side <= SHARED_SIDE_MAX_PX ? [side, side] : [width, height];
	const key = `${drawnWidth}x${drawnHeight}`;
	let rendered = overlayCache.get(key);
	if (!rendered) {
		rendered = sharp(watermarkSvg(drawnWidth, drawnHeight)).ensureAlpha().raw().toBuffer();
		overlayCache.set(key, rendered);
		rendered.catch(() => overlayCache.delete(key));
		if (overlayCache.size > OVERLAY_CACHE_SIZE)
			overlayCache.delete(overlayCache.keys().next().value as string);
	}
	const drawn = await rendered;
	let input = drawn;
	if (width !== drawnWidth || height !== drawnHeight) {
		input = Buffer.allocUnsafe(width * height * 4);
		for (let y = 0; y < height; y++)
			drawn.copy(input, y * width * 4, y * drawnWidth * 4, (y * drawnWidth + width) * 4);
	}
	return { input, raw: { width, height, channels: 4 }, top: 0, left: 0 };
}

/**
 * Stamps the locked-preview watermark onto an already rendered preview (PNG, WebP or
 * JPEG) and returns it in the same format, so the original can be kept for unlocking.
 */
export async function watermarkImage(bytes: Uint8Array): Promise<Buffer> {
	const image = sharp(bytes);
	let metadata: Metadata;
	try {
		metadata = await image.metadata();
	} catch (error) {
		throw new Error(
			`The preview to watermark is not a readable image: ${(error as Error).message}`,
		);
	}
	const format = previewFormatOf(metadata.format);
	if (!format || !metadata.width || !metadata.height) {
		throw new Error(
			`Only PNG, WebP and JPEG previews can be watermarked, not "${metadata.format}".`,
		);
	}
	const stamped = image.composite([await watermarkLayer(metadata.width, metadata.height)]);
	return encodePreview(stamped, format);
}
