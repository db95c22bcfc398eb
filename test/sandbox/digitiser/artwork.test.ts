import { deflateSync } from 'node:zlib';

import sharp from 'sharp';

import { artworkInputs, detectArtwork, digitise, DigitiseError } from '../../../sandbox/digitiser';
import { measurePattern } from '../../../sandbox/engine';
import { rgbPng } from '../../support/pngBytes';
import { centredFrame, intersectionOverUnion, renderStitches } from './support/stitchCoverage';

const logoSvg =
	`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" ` +
	`height="100" fill="#fff"/><rect x="20" y="20" width="160" height="60" fill="#c00"/></svg>`;

/** A tiny PNG whose header claims a huge picture: the classic decompression bomb. */
function pngClaiming(width: number, height: number): Buffer {
	return rgbPng(width, height, deflateSync(Buffer.alloc(width * 3 + 1)));
}

async function failure(bytes: Uint8Array): Promise<DigitiseError> {
	try {
		await digitise(bytes, { widthMm: 50, colourCount: 4 });
	} catch (error) {
		if (error instanceof DigitiseError) return error;
		throw error;
	}
	throw new Error('digitise accepted the artwork');
}

describe('artwork detection', () => {
	it('lists the accepted artwork extensions', () => {
		expect(artworkInputs).toEqual(['jpg', 'jpeg', 'png', 'svg', 'webp']);
	});

	it('recognises each image type by content', async () => {
		const svg = Buffer.from(logoSvg);
		expect(detectArtwork(await sharp(svg).png().toBuffer())).toBe('png');
		expect(detectArtwork(await sharp(svg).jpeg().toBuffer())).toBe('jpeg');
		expect(detectArtwork(await sharp(svg).webp().toBuffer())).toBe('webp');
		expect(detectArtwork(svg)).toBe('svg');
		expect(
			detectArtwork(
				Buffer.from(`\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg>\n${logoSvg}`),
			),
		).toBe('svg');
	});

	it('rejects what is not an image it can read', async () => {
		expect(detectArtwork(Buffer.from('hello, this is text'))).toBeNull();
		expect(detectArtwork(await sharp(Buffer.from(logoSvg)).gif().toBuffer())).toBeNull();
		expect(detectArtwork(new Uint8Array(0))).toBeNull();
	});
});

describe('artwork encodings', () => {
	it('reads greyscale, 16-bit and CMYK images as ordinary colour', async () => {
		const svg = Buffer.from(logoSvg);
		const encodings = [
			await sharp(svg).flatten().toColourspace('b-w').png().toBuffer(),
			await sharp(svg).toColourspace('rgb16').png().toBuffer(),
			await sharp(svg).toColourspace('cmyk').jpeg().toBuffer(),
		];
		for (const bytes of encodings) {
			const { pattern } = await digitise(bytes, { widthMm: 50, colourCount: 3 });
			expect(pattern.threads).toHaveLength(1);
			expect(pattern.length).toBeGreaterThan(300);
		}
	});
});

describe('artwork that cannot be digitised', () => {
	it('fails a text file named like a picture as unreadable', async () => {
		const error = await failure(Buffer.from('not really a png'));
		expect(error.code).toBe('unreadable_artwork');
		expect(error.message).toMatch(/PNG, JPEG, WebP or SVG/);
	});

	it('fails a truncated PNG as unreadable', async () => {
		const png = await sharp(Buffer.from(logoSvg)).png().toBuffer();
		const error = await failure(png.subarray(0, Math.floor(png.length / 2)));
		expect(error.code).toBe('unreadable_artwork');
	});

	it('fails a PNG signature followed by garbage as unreadable', async () => {
		const bytes = Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			Buffer.alloc(200, 7),
		]);
		expect((await failure(bytes)).code).toBe('unreadable_artwork');
	});

	it('refuses a decompression bomb before decoding it', async () => {
		const bomb = pngClaiming(100_000, 100_000);
		expect(bomb.length).toBeLessThan(400_000);
		const error = await failure(bomb);
		expect(error.code).toBe('artwork_too_large');
		expect(error.message).toMatch(/100000 x 100000 pixels/);
	});

	it('refuses a long thin canvas from its header, before decoding its rows', async () => {
		// Five million rows of one pixel: the first look at the canvas once decoded every row.
		const thread = pngClaiming(1, 5_000_000);
		expect(thread.length).toBeLessThan(100_000);
		const error = await failure(thread);
		expect(error.code).toBe('artwork_too_large');
		expect(error.message).toMatch(/1 x 5000000 pixels, one side more than 100 times the other/);
	});

	it('refuses an SVG that declares a gigantic canvas', async () => {
		const svg =
			'<svg xmlns="http://www.w3.org/2000/svg" width="10000000" height="10000000"><circle ' +
			'cx="5000000" cy="5000000" r="4000000" fill="#00c"/></svg>';
		expect((await failure(Buffer.from(svg))).code).toBe('artwork_too_large');
	});

	it('refuses artwork that would be taller than any hoop', async () => {
		const strip = await sharp({
			create: { width: 10, height: 400, channels: 3, background: '#c00000' },
		})
			.png()
			.toBuffer();
		const error = await failure(strip);
		expect(error.code).toBe('artwork_too_large');
		expect(error.message).toMatch(/2000 mm tall/);
	});

	it('judges artwork by content: a JPEG sent as a .png is read as the JPEG it is', async () => {
		const jpeg = await sharp(Buffer.from(logoSvg)).jpeg().toBuffer();
		const { pattern } = await digitise(jpeg, { widthMm: 50, colourCount: 2 });
		expect(pattern.threads).toHaveLength(1);
	});

	it('fails an HTML page or a GIF sent as artwork as unreadable', async () => {
		expect((await failure(Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'))).code).toBe(
			'unreadable_artwork',
		);
		expect((await failure(await sharp(Buffer.from(logoSvg)).gif().toBuffer())).code).toBe(
			'unreadable_artwork',
		);
	});

	it('fails a broken SVG as unreadable', async () => {
		expect(
			(await failure(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" </svg')))
				.code,
		).toBe('unreadable_artwork');
	});

	it('fails as empty when every detail is too small to sew at the requested width', async () => {
		// The design is a hairline: 50 mm long at the ordered width, 0.05 mm thick.
		const hairline =
			`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><rect width="1000" ` +
			`height="1000" fill="#fff"/><rect x="0" y="500" width="1000" height="1" fill="#000"/></svg>`;
		const error = await failure(await sharp(Buffer.from(hairline)).png().toBuffer());
		expect(error.code).toBe('empty_artwork');
		expect(error.message).toMatch(/larger width_mm/);
	});

	it('sews a small mark on a large empty canvas at the ordered width: margins are not part of the design', async () => {
		const speck =
			`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><rect width="1000" ` +
			`height="1000" fill="#fff"/><rect x="500" y="500" width="30" height="20" fill="#000"/></svg>`;
		const { pattern } = await digitise(await sharp(Buffer.from(speck)).png().toBuffer(), {
			widthMm: 30,
			colourCount: 2,
		});
		const size = measurePattern(pattern);
		expect(size.widthMm).toBe(30);
		expect(size.heightMm).toBeGreaterThan(19);
		expect(size.heightMm).toBeLessThan(21);
	});

	it('stitches an artwork of one colour edge to edge as one filled shape, not as an empty backdrop', async () => {
		const label = await sharp({
			create: { width: 800, height: 400, channels: 3, background: '#c8102e' },
		})
			.png()
			.toBuffer();
		const { pattern } = await digitise(label, { widthMm: 60, colourCount: 3 });
		const raster = renderStitches(pattern, centredFrame(60, 30), 0.5);
		expect(raster.blocks).toHaveLength(1);
		const whole = new Uint8Array(raster.width * raster.height).fill(1);
		expect(intersectionOverUnion(raster.blocks[0], whole)).toBeGreaterThanOrEqual(0.9);
		const red = 0xc8102e;
		const thread = pattern.threads[0].color;
		const channelGap = [16, 8, 0].map((shift) =>
			Math.abs(((thread >> shift) & 0xff) - ((red >> shift) & 0xff)),
		);
		expect(Math.max(...channelGap)).toBeLessThanOrEqual(60);
	});

	it('fails a blank artwork as empty', async () => {
		const blank = await sharp({
			create: { width: 300, height: 200, channels: 3, background: '#ffffff' },
		})
			.png()
			.toBuffer();
		const transparent = await sharp({
			create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
		})
			.png()
			.toBuffer();
		expect((await failure(blank)).code).toBe('empty_artwork');
		expect((await failure(transparent)).code).toBe('empty_artwork');
	});
});
