import sharp from 'sharp';

import { Command, Pattern } from '../../../sandbox/engine/pattern';
import { renderPreview, type PreviewFormat } from '../../../sandbox/engine/preview';
import { watermarkImage, watermarkLayer } from '../../../sandbox/engine/watermark';

/** A filled disc, 60 mm across, sewn in horizontal rows: ink in the middle, bare corners. */
function discDesign(): Pattern {
	const pattern = new Pattern();
	const radius = 300;
	for (let y = -radius, row = 0; y <= radius; y += 4, row++) {
		const half = Math.sqrt(radius * radius - y * y);
		const xs = [-half, 0, half];
		if (row % 2) xs.reverse();
		for (const x of xs) pattern.add(x, y, Command.Stitch);
	}
	pattern.add(pattern.lastX(), pattern.lastY(), Command.End);
	pattern.threads = [{ color: 0x1f6f3f }];
	return pattern;
}

async function rawPixels(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
	const { data, info } = await sharp(bytes)
		.ensureAlpha()
		.raw()
		.toBuffer({ resolveWithObject: true });
	return { data, width: info.width, height: info.height };
}

/** Share of pixels that changed visibly in each cell of a 4 x 4 grid over the image. */
async function changedShareByCell(original: Buffer, stamped: Buffer): Promise<number[]> {
	const before = await rawPixels(original);
	const after = await rawPixels(stamped);
	expect([after.width, after.height]).toEqual([before.width, before.height]);
	const shares: number[] = [];
	for (let row = 0; row < 4; row++) {
		for (let column = 0; column < 4; column++) {
			let changed = 0;
			let total = 0;
			const top = Math.floor((row * before.height) / 4);
			const bottom = Math.floor(((row + 1) * before.height) / 4);
			const left = Math.floor((column * before.width) / 4);
			const right = Math.floor(((column + 1) * before.width) / 4);
			for (let y = top; y < bottom; y++) {
				for (let x = left; x < right; x++) {
					const index = (y * before.width + x) * 4;
					for (let channel = 0; channel < 4; channel++) {
						const difference = before.data[index + channel] - after.data[index + channel];
						if (difference > 24 || difference < -24) {
							changed++;
							break;
						}
					}
					total++;
				}
			}
			shares.push(changed / total);
		}
	}
	return shares;
}

describe('locked preview watermark', () => {
	it.each<PreviewFormat>(['png', 'webp', 'jpeg'])(
		'watermarkImage marks every part of a %s preview and keeps its format and size',
		async (format) => {
			const original = await renderPreview(discDesign(), { format, maxSizePx: 512 });
			const stamped = await watermarkImage(original.bytes);
			const metadata = await sharp(stamped).metadata();
			expect(metadata).toMatchObject({ format, width: original.width, height: original.height });
			for (const share of await changedShareByCell(original.bytes, stamped)) {
				expect(share).toBeGreaterThan(0.03);
			}
		},
	);

	it('renderPreview with watermark differs from the plain preview in every part of the image', async () => {
		const plain = await renderPreview(discDesign(), { maxSizePx: 1024 });
		const locked = await renderPreview(discDesign(), { maxSizePx: 1024, watermark: true });
		expect([locked.width, locked.height, locked.mimeType]).toEqual([
			plain.width,
			plain.height,
			plain.mimeType,
		]);
		for (const share of await changedShareByCell(plain.bytes, locked.bytes)) {
			expect(share).toBeGreaterThan(0.03);
		}
	});

	it('still covers small crops of a small preview', async () => {
		const plain = await renderPreview(discDesign(), { maxSizePx: 96 });
		const locked = await watermarkImage(plain.bytes);
		for (const share of await changedShareByCell(plain.bytes, locked)) {
			expect(share).toBeGreaterThan(0.03);
		}
	});

	it('stamps a wide and a tall preview with the top-left of the square layer for their longer side', async () => {
		const square = (await watermarkLayer(300, 300)).input as Buffer;
		for (const [width, height] of [
			[300, 157],
			[157, 300],
		]) {
			const layer = await watermarkLayer(width, height);
			expect(layer.raw).toEqual({ width, height, channels: 4 });
			const input = layer.input as Buffer;
			expect(input.length).toBe(width * height * 4);
			for (const y of [0, 1, 77, height - 1]) {
				const row = input.subarray(y * width * 4, (y + 1) * width * 4);
				expect(row.equals(square.subarray(y * 300 * 4, (y * 300 + width) * 4))).toBe(true);
			}
		}
	});

	it('marks every part of a preview much wider than it is tall', async () => {
		const wide = discDesign();
		for (let i = 0; i < wide.length; i++) wide.xs[i] *= 3;
		const plain = await renderPreview(wide, { maxSizePx: 600 });
		expect(plain.width).toBeGreaterThan(2 * plain.height);
		const locked = await watermarkImage(plain.bytes);
		for (const share of await changedShareByCell(plain.bytes, locked)) {
			expect(share).toBeGreaterThan(0.03);
		}
	});

	it('refuses bytes that are not a PNG, WebP or JPEG preview', async () => {
		await expect(watermarkImage(Buffer.from('not an image'))).rejects.toThrow(
			/not a readable image/,
		);
		const gif = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#000' } })
			.gif()
			.toBuffer();
		await expect(watermarkImage(gif)).rejects.toThrow(/Only PNG, WebP and JPEG previews/);
	});
});
