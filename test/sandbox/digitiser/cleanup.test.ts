import { removeUnsewableDetail } from '../../../sandbox/digitiser/cleanup';
import { background } from '../../../sandbox/digitiser/regions';
import { segmentsByBlock, sew, shapePng } from './support/shapes';

/** A square of `size` pixels, label 0, on background; `hole(x, y)` says which of its pixels are bare. */
function labelsOf(size: number, margin: number, hole: (x: number, y: number) => boolean) {
	const width = size + 2 * margin;
	const labels = new Uint8Array(width * width).fill(background);
	for (let y = 0; y < size; y++) {
		for (let x = 0; x < size; x++) if (!hole(x, y)) labels[(y + margin) * width + x + margin] = 0;
	}
	return { labels, width };
}

/** Bare regions inside the design (not the background around it). */
function holesLeft(labels: Uint8Array, width: number): number {
	const { map } = removeUnsewableDetail(labels, width, width, {
		minAreaPx: 18,
		minWidthPx: 2,
		lineWidthPx: 5.3,
	});
	return map.regions.filter((r) => r.label === background && !r.touchesBorder).length;
}

describe('small holes', () => {
	it('keeps the openings of a net of thin lines open', () => {
		// Lines 3 pixels wide, 7 apart: 4 x 4 openings (16 pixels, under the 18 a hole needs to
		// be kept for itself). Before, every opening was filled and the net sewn as one fill.
		const { labels, width } = labelsOf(73, 4, (x, y) => x % 7 >= 3 && y % 7 >= 3);
		expect(holesLeft(labels, width)).toBe(100);
	});
	it('still fills a pinhole in a solid area', () => {
		const { labels, width } = labelsOf(40, 4, (x, y) => x >= 18 && x < 22 && y >= 18 && y < 22);
		expect(holesLeft(labels, width)).toBe(0);
	});
	it('sews a fine net as running stitch along its lines, its openings left bare', async () => {
		// 0.45 mm lines 1.05 mm apart at 0.15 mm a pixel: openings of 0.36 mm², under the smallest
		// area worth a needle's visit. As a fill it was about 730 mm of thread (rows 0.2 mm apart);
		// along its 22 lines of 11 mm, out and back, it is about 480.
		const lines: string[] = [];
		for (let k = 0; k <= 10; k++) {
			lines.push(`<rect x="${10 + k * 7}" y="10" width="3" height="73" fill="#000000"/>`);
			lines.push(`<rect x="10" y="${10 + k * 7}" width="73" height="3" fill="#000000"/>`);
		}
		const png = await shapePng(lines.join(''), 93, 93);
		const [net] = segmentsByBlock(await sew(png, 73 * 0.15, 1));
		const thread = net.reduce((sum, s) => sum + s.length, 0);
		expect(thread).toBeGreaterThan(22 * 11 * 1.5);
		expect(thread).toBeLessThan(22 * 11 * 2.6);
	});
});
