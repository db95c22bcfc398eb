import { findRegions, regionPixels } from '../../../sandbox/digitiser/regions';
import { doubleRunTours, skeletonise, thin } from '../../../sandbox/digitiser/skeleton';

/** A map of one shape (label 0) on background (255), from rectangles [x, y, w, h] in pixels. */
function shape(width: number, height: number, rects: number[][]) {
	const labels = new Uint8Array(width * height).fill(255);
	for (const [x0, y0, w, h] of rects) {
		for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) labels[y * width + x] = 0;
	}
	const map = findRegions(labels, width, height);
	const id = map.regions.findIndex((region) => region.label === 0);
	return { map, id };
}

describe('skeleton of a line', () => {
	it('thins a 4-pixel band to one pixel on its middle', () => {
		const { map, id } = shape(40, 12, [[2, 4, 36, 4]]);
		const skeleton = skeletonise(map, id);
		const rows = new Map<number, number>();
		skeleton.mask.forEach((on, i) => {
			if (!on) return;
			const y = Math.floor(i / skeleton.w) + skeleton.y0;
			rows.set(y, (rows.get(y) ?? 0) + 1);
		});
		// One row, one of the two middle ones, nearly the band's length.
		expect(rows.size).toBe(1);
		const [[row, count]] = [...rows];
		expect([5, 6]).toContain(row);
		expect(count).toBeGreaterThan(28);
	});

	it('tours a cross out and back along each arm, the return through the same holes', () => {
		// Two 3-pixel lines crossing at (20, 20).
		const { map, id } = shape(41, 41, [
			[19, 2, 3, 37],
			[2, 19, 37, 3],
		]);
		const [tour, ...rest] = doubleRunTours(
			skeletonise(map, id),
			[20.5, 2],
			{ stepPx: 6, tolerancePx: 1, shortPx: 0, spurPx: 3 },
			(x, y) => [x, y],
		);
		expect(rest).toEqual([]);
		// Starts at the top tip and ends there, and reaches the other three tips.
		expect(tour[0][1]).toBeLessThan(6);
		expect(tour[tour.length - 1]).toEqual(tour[0]);
		const reaches = (test: (p: [number, number]) => boolean) => tour.some(test);
		expect(reaches(([, y]) => y > 35)).toBe(true);
		expect(reaches(([x]) => x < 6)).toBe(true);
		expect(reaches(([x]) => x > 35)).toBe(true);
		// Every hole lies on a line's middle pixel row or column, and is pierced on the way out and back.
		for (const [x, y] of tour) expect(x === 20.5 || y === 20.5).toBe(true);
		const counts = new Map<string, number>();
		for (const [x, y] of tour) counts.set(`${x},${y}`, (counts.get(`${x},${y}`) ?? 0) + 1);
		const tips = [...counts.values()].filter((n) => n === 1).length;
		expect(tips).toBeLessThanOrEqual(4);
		// No stitch longer than the step.
		for (let k = 1; k < tour.length; k++) {
			const length = Math.hypot(tour[k][0] - tour[k - 1][0], tour[k][1] - tour[k - 1][1]);
			expect(length).toBeLessThanOrEqual(6 + 1e-9);
		}
	});

	it("measures a bend from the line's middle, not from the skeleton's stair steps", () => {
		// A band 3 pixels deep rising 1 pixel in 5 over 80: thinned, its centre line is a staircase
		// that strays up to half a pixel from a straight stitch, though the line itself is straight.
		const width = 90;
		const height = 30;
		const labels = new Uint8Array(width * height).fill(255);
		const middleY = (x: number) => 8 + x / 5;
		for (let y = 0; y < height; y++)
			for (let x = 5; x < 85; x++)
				if (Math.abs(y + 0.5 - middleY(x + 0.5)) < 1.5) labels[y * width + x] = 0;
		const map = findRegions(labels, width, height);
		const id = map.regions.findIndex((region) => region.label === 0);
		const [tour] = doubleRunTours(
			skeletonise(map, id),
			[5, middleY(5)],
			{ stepPx: 20, tolerancePx: 0.25, shortPx: 0, spurPx: 2 },
			// The middle of the line across each pixel, as the artwork draws it.
			(x) => [x, middleY(x)],
		);
		// Out and back along 80 pixels in stitches of up to 20: about 5 holes each way, where holding
		// the staircase to a quarter pixel took one every few pixels.
		expect(tour.length).toBeLessThanOrEqual(2 * (80 / 20 + 2));
		for (const [x, y] of tour.slice(1, -1)) expect(Math.abs(y - middleY(x))).toBeLessThan(1e-9);
	});
});

describe('thinning', () => {
	/** Zhang and Suen as written: every pixel of the box looked at in every pass, until none goes. */
	function thinEveryPixel(mask: Uint8Array, w: number, h: number): void {
		// North first, then clockwise (y grows downwards).
		const around = Array.from({ length: 8 }, (_, k) => [
			Math.round(Math.sin((k * Math.PI) / 4)),
			-Math.round(Math.cos((k * Math.PI) / 4)),
		]);
		for (let changed = true; changed; ) {
			changed = false;
			for (let pass = 0; pass < 2; pass++) {
				const doomed: number[] = [];
				for (let y = 1; y < h - 1; y++) {
					for (let x = 1; x < w - 1; x++) {
						if (!mask[y * w + x]) continue;
						const p = around.map(([dx, dy]) => mask[(y + dy) * w + x + dx]);
						const count = p.reduce((sum, bit) => sum + bit, 0);
						const runs = p.filter((bit, k) => !bit && p[(k + 1) % 8]).length;
						const kept =
							pass === 0
								? p[0] * p[2] * p[4] || p[2] * p[4] * p[6]
								: p[0] * p[2] * p[6] || p[0] * p[4] * p[6];
						if (count >= 2 && count <= 6 && runs === 1 && !kept) doomed.push(y * w + x);
					}
				}
				for (const i of doomed) mask[i] = 0;
				if (doomed.length) changed = true;
			}
		}
	}

	it.each([
		['a 2-pixel line at 45 degrees, which thinning eats from its ends', 2, 1],
		['a 4-pixel line at about 27 degrees', 4, 0.5],
		['a 3-pixel line at about 63 degrees', 3, 2],
	])('leaves what looking at every pixel leaves: %s', (_, thickness, slope) => {
		const w = 90;
		const h = 90;
		const mask = new Uint8Array(w * h);
		for (let x = 2; x < w - 2; x++) {
			for (let t = 0; t < thickness; t++) {
				const y = Math.round(2 + x * slope) + t;
				if (y < h - 2) mask[y * w + x] = 1;
			}
		}
		const expected = mask.slice();
		thinEveryPixel(expected, w, h);
		const left = thin(mask, w, h);
		expect(Array.from(mask)).toEqual(Array.from(expected));
		// The pixels left, in scan order.
		expect(left).toEqual(Array.from(expected.keys()).filter((i) => expected[i]));
	});

	it('leaves what looking at every pixel leaves, on ragged blobs', () => {
		// Ragged shapes thin in many places at once, where the two kinds of pass take turns.
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed / 0x7fffffff;
		};
		for (let n = 0; n < 40; n++) {
			const w = 24;
			const h = 20;
			const mask = new Uint8Array(w * h);
			for (let y = 1; y < h - 1; y++)
				for (let x = 1; x < w - 1; x++) mask[y * w + x] = random() < 0.65 ? 1 : 0;
			const expected = mask.slice();
			thinEveryPixel(expected, w, h);
			thin(mask, w, h);
			expect(Array.from(mask)).toEqual(Array.from(expected));
		}
	});

	it("skeletonises from a region's own pixels as from its box", () => {
		// An L and a diagonal bar: regions whose boxes hold pixels of others.
		const { map, id } = shape(60, 40, [
			[3, 3, 4, 30],
			[3, 29, 50, 4],
		]);
		const fromBox = skeletonise(map, id);
		const fromPixels = skeletonise(map, id, regionPixels(map)(id));
		expect(Array.from(fromPixels.mask)).toEqual(Array.from(fromBox.mask));
		expect(fromPixels.pixels).toEqual(fromBox.pixels);
		expect(fromPixels.pixels!.length).toBeGreaterThan(60);
	});
});
