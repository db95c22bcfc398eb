import { chamferDistances, findRegions } from '../../../sandbox/digitiser/regions';

/** The 1 and 1.4142 chamfer distance between two pixels: diagonal steps first, then straight ones. */
function chamfer(dx: number, dy: number): number {
	const [a, b] = [Math.abs(dx), Math.abs(dy)].sort((p, q) => p - q);
	return a * 1.4142 + (b - a);
}

describe('findRegions', () => {
	it('finds a comb with more teeth than the map has rows as one region', () => {
		// Teeth above and below a full row: filling that row starts a run in every other pixel beside it.
		const width = 40;
		const labels = new Uint8Array(width * 3);
		for (let x = 0; x < width; x++) {
			labels[x] = labels[2 * width + x] = x % 2 === 0 ? 1 : 0;
			labels[width + x] = 1;
		}
		const map = findRegions(labels, width, 3);
		const comb = map.regions[map.ids[0]];
		expect(comb).toMatchObject({ label: 1, area: 80, minX: 0, maxX: 39, minY: 0, maxY: 2 });
		expect(comb.touchesBorder).toBe(true);
		for (let i = 0; i < labels.length; i++) {
			if (labels[i] === 1) expect(map.ids[i]).toBe(comb.id);
		}
		// Every gap between two teeth is a region of its own.
		expect(map.regions).toHaveLength(41);
		expect(map.regions.filter((region) => region.label === 0).every((r) => r.area === 1)).toBe(
			true,
		);
	});

	it('numbers regions in the order their first pixel is met, row by row', () => {
		// A U open at the top, with a blob in its mouth: the U is met first, the blob next.
		const labels = Uint8Array.from(
			[
				[1, 0, 0, 0, 1],
				[1, 0, 2, 0, 1],
				[1, 1, 1, 1, 1],
			].flat(),
		);
		const map = findRegions(labels, 5, 3);
		expect(map.regions.map((region) => [region.label, region.area])).toEqual([
			[1, 9],
			[0, 5],
			[2, 1],
		]);
		expect(Array.from(map.ids)).toEqual([0, 1, 1, 1, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 0]);
	});
});

describe('chamferDistances', () => {
	it.each([
		[7, 5, 0, 0],
		[7, 5, 3, 2],
		[6, 4, 5, 3],
		[1, 6, 0, 4],
		[6, 1, 2, 0],
		[2, 2, 1, 0],
	])('measures a %ix%i map from one seed at (%i, %i)', (w, h, sx, sy) => {
		const seed = new Uint8Array(w * h);
		seed[sy * w + sx] = 1;
		const distances = chamferDistances(seed, w, h);
		for (let y = 0; y < h; y++) {
			for (let x = 0; x < w; x++)
				expect(distances[y * w + x]).toBeCloseTo(chamfer(x - sx, y - sy), 4);
		}
	});

	it('takes the nearest of several seeds', () => {
		const seed = new Uint8Array(9 * 3);
		seed[0] = seed[8 + 2 * 9] = 1;
		const distances = chamferDistances(seed, 9, 3);
		for (let y = 0; y < 3; y++) {
			for (let x = 0; x < 9; x++) {
				const nearest = Math.min(chamfer(x, y), chamfer(x - 8, y - 2));
				expect(distances[y * 9 + x]).toBeCloseTo(nearest, 4);
			}
		}
	});
});
