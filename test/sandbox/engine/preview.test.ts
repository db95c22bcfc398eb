import sharp from 'sharp';

import { readPattern } from '../../../sandbox/engine';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import {
	defaultPreviewPalette,
	rasterisePattern,
	renderPreview,
	renderPreviewPair,
	type Preview,
	type PreviewOptions,
} from '../../../sandbox/engine/preview';
import { loadFixture } from './support/referenceDecoding';

const RED = 0xcc2222;
const BLUE = 0x2244cc;
const GREEN = 0x22aa44;

/** Back-and-forth fill of a rectangle: rows 0.4 mm apart, stitches up to 2.5 mm long. */
function fillRectangle(
	pattern: Pattern,
	left: number,
	top: number,
	right: number,
	bottom: number,
): void {
	for (let y = top, row = 0; y <= bottom; y += 4, row++) {
		const xs: number[] = [];
		for (let x = left; x < right; x += 25) xs.push(x);
		xs.push(right);
		if (row % 2 === 1) xs.reverse();
		for (const x of xs) pattern.add(x, y, Command.Stitch);
	}
}

/**
 * Three colour blocks on one line: red at x 0..200, a 20 mm empty gap crossed only by a
 * trim and a jump, then blue at 400..600, then green sewn over the right half of the blue.
 */
function threeBlockDesign(withThreads: boolean): Pattern {
	const pattern = new Pattern();
	pattern.add(0, 0, Command.Jump);
	fillRectangle(pattern, 0, 0, 200, 200);
	pattern.add(pattern.lastX(), pattern.lastY(), Command.Trim);
	pattern.add(400, 0, Command.Jump);
	pattern.add(400, 0, Command.ColorChange);
	fillRectangle(pattern, 400, 0, 600, 200);
	pattern.add(pattern.lastX(), pattern.lastY(), Command.Trim);
	pattern.add(500, 0, Command.Jump);
	pattern.add(500, 0, Command.ColorChange);
	fillRectangle(pattern, 500, 0, 600, 200);
	pattern.add(pattern.lastX(), pattern.lastY(), Command.End);
	if (withThreads) pattern.threads = [{ color: RED }, { color: BLUE }, { color: GREEN }];
	return pattern;
}

interface DecodedImage {
	data: Buffer;
	width: number;
	height: number;
	format: string | undefined;
	channels: number;
}

async function decode(bytes: Buffer): Promise<DecodedImage> {
	const { format, channels } = await sharp(bytes).metadata();
	const { data, info } = await sharp(bytes)
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	return { data, width: info.width, height: info.height, format, channels };
}

/** Mean RGBA of a small square around a pixel, so one needle hole does not decide a test. */
function sample(
	image: DecodedImage,
	px: number,
	py: number,
	half = 2,
): [number, number, number, number] {
	const sum = [0, 0, 0, 0];
	let count = 0;
	for (let y = Math.round(py) - half; y <= Math.round(py) + half; y++) {
		for (let x = Math.round(px) - half; x <= Math.round(px) + half; x++) {
			const index = (y * image.width + x) * 4;
			for (let channel = 0; channel < 4; channel++) sum[channel] += image.data[index + channel];
			count++;
		}
	}
	return sum.map((value) => value / count) as [number, number, number, number];
}

/** Bounding box of every pixel with some ink, i.e. where the design landed in the image. */
function inkBox(image: DecodedImage): { left: number; top: number; right: number; bottom: number } {
	let left = image.width;
	let top = image.height;
	let right = -1;
	let bottom = -1;
	for (let y = 0; y < image.height; y++) {
		for (let x = 0; x < image.width; x++) {
			if (image.data[(y * image.width + x) * 4 + 3] === 0) continue;
			left = Math.min(left, x);
			right = Math.max(right, x);
			top = Math.min(top, y);
			bottom = Math.max(bottom, y);
		}
	}
	return { left, top, right, bottom };
}

function dominantChannel([r, g, b]: number[]): 'r' | 'g' | 'b' {
	if (r > g && r > b) return 'r';
	return g > b ? 'g' : 'b';
}

function hexChannels(colour: number): number[] {
	return [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff];
}

describe('renderPreview', () => {
	it('renders a PNG whose longer side is maxSizePx, with transparent padding', async () => {
		const preview = await renderPreview(threeBlockDesign(true), { maxSizePx: 600 });
		expect(preview).toMatchObject({ mimeType: 'image/png', extension: 'png', width: 600 });
		const image = await decode(preview.bytes);
		expect(image).toMatchObject({ format: 'png', width: 600, height: preview.height });
		// The design is 3:1, so the height is about a third of the width plus padding.
		expect(preview.height).toBeGreaterThan(200);
		expect(preview.height).toBeLessThan(300);
		for (const [x, y] of [
			[0, 0],
			[599, 0],
			[0, preview.height - 1],
			[599, preview.height - 1],
		]) {
			expect(sample(image, x, y, 0)[3]).toBe(0);
		}
		const ink = inkBox(image);
		for (const margin of [ink.left, ink.top, 599 - ink.right, preview.height - 1 - ink.bottom]) {
			expect(margin).toBeGreaterThanOrEqual(5);
			expect(margin).toBeLessThanOrEqual(60);
		}
	});

	it('draws each colour block in its thread colour, later blocks over earlier ones, and no jumps', async () => {
		const image = await decode(
			(await renderPreview(threeBlockDesign(true), { maxSizePx: 600 })).bytes,
		);
		const ink = inkBox(image);
		const at = (x: number, y: number) =>
			sample(
				image,
				ink.left + ((ink.right - ink.left) * x) / 600,
				ink.top + ((ink.bottom - ink.top) * y) / 200,
			);

		const red = at(100, 100);
		expect(red[3]).toBeGreaterThan(200);
		expect(red[0]).toBeGreaterThan(red[1] + 60);
		expect(red[0]).toBeGreaterThan(red[2] + 60);

		const blue = at(450, 100);
		expect(blue[3]).toBeGreaterThan(200);
		expect(blue[2]).toBeGreaterThan(blue[0] + 60);

		const greenOverBlue = at(550, 100);
		expect(greenOverBlue[3]).toBeGreaterThan(200);
		expect(greenOverBlue[1]).toBeGreaterThan(greenOverBlue[2] + 40);
		expect(greenOverBlue[1]).toBeGreaterThan(greenOverBlue[0] + 40);

		// The trim and the jump cross the gap from (200, 200) to (400, 0): nothing may show there.
		for (let x = 230; x <= 370; x += 10) {
			for (let y = 0; y <= 200; y += 10) expect(at(x, y)[3]).toBe(0);
		}
	});

	it('keeps drawing the thread across a stop, which only pauses the machine', async () => {
		const pattern = new Pattern();
		pattern.add(0, 0, Command.Stitch);
		pattern.add(300, 0, Command.Stitch);
		pattern.add(300, 0, Command.Stop);
		pattern.add(600, 0, Command.Stitch);
		pattern.add(600, 0, Command.Trim);
		pattern.add(600, 200, Command.Jump);
		pattern.add(600, 200, Command.Stitch);
		pattern.add(0, 200, Command.Stitch);
		pattern.threads = [{ color: BLUE }];
		const image = await decode((await renderPreview(pattern, { maxSizePx: 600 })).bytes);
		const ink = inkBox(image);
		// The ink reaches half a thread width (0.2 mm) beyond the needle holes on every side.
		const at = (x: number, y: number) =>
			sample(
				image,
				ink.left + ((ink.right + 1 - ink.left) * (x + 2)) / 604,
				ink.top + ((ink.bottom + 1 - ink.top) * (y + 2)) / 204,
				0,
			);
		expect(at(450, 0)[3]).toBeGreaterThan(200);
		expect(at(150, 200)[3]).toBeGreaterThan(200);
		expect(at(600, 100)[3]).toBe(0);
	});

	it('shades the thread, so a block is not one flat colour', async () => {
		const image = await decode(
			(await renderPreview(threeBlockDesign(true), { maxSizePx: 600 })).bytes,
		);
		const ink = inkBox(image);
		const reds = new Set<number>();
		for (let y = ink.top + 40; y < ink.top + 80; y++) {
			reds.add(image.data[(y * image.width + ink.left + 80) * 4]);
		}
		expect(reds.size).toBeGreaterThan(5);
	});

	it('shows which way the stitches run: a satin band varies across its stitches, not along them', async () => {
		// A horizontal band 20 mm long and 5 mm high, sewn as satin: stitches up and down across
		// it, 0.2 mm apart, at the size a customer approves.
		const band = new Pattern();
		band.add(0, 0, Command.Jump);
		for (let x = 0; x <= 200; x += 2) band.add(x, (x / 2) % 2 ? 50 : 0, Command.Stitch);
		band.add(band.lastX(), band.lastY(), Command.End);
		band.threads = [{ color: RED }];
		const image = await decode((await renderPreview(band, { maxSizePx: 1024 })).bytes);
		const ink = inkBox(image);
		const luminance = (x: number, y: number) => {
			const i = (y * image.width + x) * 4;
			return 0.2126 * image.data[i] + 0.7152 * image.data[i + 1] + 0.0722 * image.data[i + 2];
		};
		// Mean change between neighbouring pixels in the band's middle, away from the needle holes.
		let across = 0;
		let along = 0;
		let count = 0;
		const height = ink.bottom - ink.top;
		for (let y = ink.top + Math.round(height * 0.3); y < ink.top + height * 0.7; y++) {
			for (let x = ink.left + 40; x < ink.right - 40; x++) {
				across += Math.abs(luminance(x + 1, y) - luminance(x, y));
				along += Math.abs(luminance(x, y + 1) - luminance(x, y));
				count++;
			}
		}
		expect(across / count).toBeGreaterThan(4);
		expect(across).toBeGreaterThan(3 * along);
	});

	it('gives designs without thread colours a distinct default colour per block', async () => {
		const image = await decode(
			(await renderPreview(threeBlockDesign(false), { maxSizePx: 600 })).bytes,
		);
		const ink = inkBox(image);
		const at = (x: number, y: number) =>
			sample(
				image,
				ink.left + ((ink.right - ink.left) * x) / 600,
				ink.top + ((ink.bottom - ink.top) * y) / 200,
			);
		const first = at(100, 100);
		const second = at(450, 100);
		expect(first[3]).toBeGreaterThan(200);
		expect(dominantChannel(first)).toBe(dominantChannel(hexChannels(defaultPreviewPalette[0])));
		expect(dominantChannel(second)).toBe(dominantChannel(hexChannels(defaultPreviewPalette[1])));
		expect(dominantChannel(first)).not.toBe(dominantChannel(second));
	});

	it('encodes WebP with a transparent background and JPEG on white, both decodable', async () => {
		const pattern = threeBlockDesign(true);
		const webp = await renderPreview(pattern, { format: 'webp', maxSizePx: 300 });
		expect(webp).toMatchObject({ mimeType: 'image/webp', extension: 'webp', width: 300 });
		const webpImage = await decode(webp.bytes);
		expect(webpImage).toMatchObject({
			format: 'webp',
			width: 300,
			height: webp.height,
			channels: 4,
		});
		expect(sample(webpImage, 0, 0, 0)[3]).toBe(0);

		const jpeg = await renderPreview(pattern, { format: 'jpeg', maxSizePx: 300 });
		expect(jpeg).toMatchObject({ mimeType: 'image/jpeg', extension: 'jpg', width: 300 });
		const jpegImage = await decode(jpeg.bytes);
		expect(jpegImage).toMatchObject({
			format: 'jpeg',
			width: 300,
			height: jpeg.height,
			channels: 3,
		});
		const corner = sample(jpegImage, 2, 2);
		for (const channel of corner) expect(channel).toBeGreaterThan(245);
	});

	it('renders the real Star.DST at its proportions, both colour blocks in the default palette', async () => {
		const fixture = loadFixture('Star.DST');
		const preview = await renderPreview(readPattern(fixture.bytes));
		// The star is 59.1 x 62.3 mm, so it stands taller than wide.
		expect(preview.height).toBe(1024);
		expect(preview.width).toBeGreaterThan(940);
		expect(preview.width).toBeLessThan(1000);
		const image = await decode(preview.bytes);
		const centre = sample(image, image.width / 2, image.height / 2);
		expect(centre[3]).toBeGreaterThan(200);
		expect(dominantChannel(centre)).toBe(dominantChannel(hexChannels(defaultPreviewPalette[0])));
		const inkByChannel = { r: 0, g: 0, b: 0 };
		for (let index = 0; index < image.data.length; index += 4) {
			if (image.data[index + 3] > 200)
				inkByChannel[dominantChannel([...image.data.subarray(index, index + 3)])]++;
		}
		const ink = inkByChannel.r + inkByChannel.g + inkByChannel.b;
		expect(
			inkByChannel[dominantChannel(hexChannels(defaultPreviewPalette[1]))] / ink,
		).toBeGreaterThan(0.1);
		expect(
			inkByChannel[dominantChannel(hexChannels(defaultPreviewPalette[0]))] / ink,
		).toBeGreaterThan(0.3);
	});

	it('draws a design too costly for its pixel budget smaller, then scales it to the asked size', async () => {
		const pattern = new Pattern();
		for (let i = 0; i < 20_000; i++) pattern.add(i % 2 ? 1000 : 0, (i * 7) % 1000, Command.Stitch);
		pattern.threads = [{ color: RED }];
		const pixelBudget = 3_000_000;
		expect(rasterisePattern(pattern, 1024, pixelBudget).width).toBeLessThan(512);
		const preview = await renderPreview(pattern, { maxSizePx: 1024, pixelBudget });
		expect(preview.width).toBe(1024);
		expect(preview.height).toBeGreaterThan(1015);
		const image = await decode(preview.bytes);
		expect([image.width, image.height]).toEqual([preview.width, preview.height]);
		const middle = sample(image, 512, 512);
		expect(middle[3]).toBeGreaterThan(200);
		expect(dominantChannel(middle)).toBe('r');
	});

	it('renders a design that sews nothing as an empty transparent square', async () => {
		const pattern = new Pattern();
		pattern.add(0, 0, Command.Jump);
		pattern.add(300, 300, Command.Jump);
		pattern.add(300, 300, Command.End);
		const preview = await renderPreview(pattern, { maxSizePx: 64 });
		const image = await decode(preview.bytes);
		expect([image.width, image.height]).toEqual([64, 64]);
		expect(inkBox(image).right).toBe(-1);
	});

	it('rejects sizes and formats it cannot produce, saying what is allowed', async () => {
		const pattern = threeBlockDesign(true);
		await expect(renderPreview(pattern, { maxSizePx: 5 })).rejects.toThrow(/16 to 4096/);
		await expect(renderPreview(pattern, { maxSizePx: 100.5 })).rejects.toThrow(/whole number/);
		await expect(renderPreview(pattern, { format: 'gif' as 'png' })).rejects.toThrow(
			/png, webp or jpeg/,
		);
		await expect(renderPreview(pattern, { pixelBudget: -1 })).rejects.toThrow(/positive number/);
	});

	it('draws the clean and the watermarked preview of a job once, into the bytes two renders give', async () => {
		const star = readPattern(loadFixture('Star.DST').bytes);
		const costly = new Pattern();
		for (let i = 0; i < 20_000; i++) costly.add(i % 2 ? 1000 : 0, (i * 7) % 1000, Command.Stitch);
		const cases: Array<[Pattern, PreviewOptions]> = [
			[star, {}],
			[star, { format: 'webp', maxSizePx: 300 }],
			[star, { format: 'jpeg', maxSizePx: 200 }],
			// Drawn smaller for its budget, then scaled up: both previews are scaled the same way.
			[costly, { maxSizePx: 512, pixelBudget: 3_000_000 }],
		];
		// Bytes compared with Buffer.equals: toEqual walks a buffer byte by byte, for seconds.
		const expectSame = (actual: Preview, expected: Preview) => {
			expect({ ...actual, bytes: null }).toEqual({ ...expected, bytes: null });
			expect(actual.bytes.equals(expected.bytes)).toBe(true);
		};
		for (const [pattern, options] of cases) {
			const pair = await renderPreviewPair(pattern, options);
			expectSame(pair.original, await renderPreview(pattern, options));
			expectSame(pair.watermarked, await renderPreview(pattern, { ...options, watermark: true }));
			expect(pair.watermarked.bytes.equals(pair.original.bytes)).toBe(false);
		}
		await expect(renderPreviewPair(star, { maxSizePx: 5 })).rejects.toThrow(/16 to 4096/);
	});
});
