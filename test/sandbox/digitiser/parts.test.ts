import {
	joinShowingFill,
	splitNarrowBands,
	splitThinParts,
} from '../../../sandbox/digitiser/parts';
import { background, findRegions } from '../../../sandbox/digitiser/regions';

// At the working grid's 0.15 mm a pixel: strokes are under 0.8 mm, the fill's underlap reaches 0.6 mm.
const strokePx = 0.8 / 0.15;
const reachPx = 0.6 / 0.15;
const fill = 0;
const outline = 1;

/** A map from rectangles [x, y, w, h, label] painted in order on background. */
function paint(width: number, height: number, rects: number[][]) {
	const labels = new Uint8Array(width * height).fill(background);
	for (const [x0, y0, w, h, label] of rects) {
		for (let y = y0; y < y0 + h; y++)
			for (let x = x0; x < x0 + w; x++) labels[y * width + x] = label;
	}
	const map = findRegions(labels, width, height);
	splitThinParts(map, strokePx, 1 / (0.15 * 0.15));
	return map;
}

const regionAt = (map: ReturnType<typeof paint>, x: number, y: number) =>
	map.ids[y * map.width + x];

/** A fill from x 5 to 49, an outline of `outlineWidth` pixels over its right edge, 3 pixels of fill past it. */
const outlinedFill = (outlineWidth: number) =>
	paint(60, 50, [
		[5, 5, 44, 40, fill],
		[49 - outlineWidth, 5, outlineWidth, 40, outline],
		[49, 5, 3, 40, fill],
	]);

describe('a fill showing past the outline laid on its edge', () => {
	it('sews the strip beyond a 0.6 mm outline as part of the fill, not as a line of its own', () => {
		// A 6 x 6 mm fill, a 4-pixel outline over its right edge and 3 pixels of the fill past it.
		const map = outlinedFill(4);
		const body = regionAt(map, 20, 20);
		const strip = regionAt(map, 50, 20);
		expect(strip).not.toBe(body);
		joinShowingFill(map, strokePx, reachPx);
		for (let y = 5; y < 45; y++) {
			for (let x = 49; x < 52; x++) expect(regionAt(map, x, y)).toBe(body);
		}
		expect(map.regions[body].maxX).toBe(51);
		expect(map.regions[body].area).toBe(44 * 40 - 4 * 40 + 3 * 40);
		expect(map.regions[strip].area).toBe(0);
		// The outline is still its own line, sewn on top.
		expect(map.regions[regionAt(map, 46, 20)].label).toBe(outline);
	});

	it('leaves a line of the fill colour beyond the underlap as a line', () => {
		// The same, with an outline 8 pixels (1.2 mm) wide: the fill's rows cannot run under it.
		const map = outlinedFill(8);
		const strip = regionAt(map, 50, 20);
		joinShowingFill(map, strokePx, reachPx);
		expect(regionAt(map, 50, 20)).toBe(strip);
		expect(map.regions[strip].area).toBe(3 * 40);
	});

	it('leaves a stripe of the fill colour inside the design a line', () => {
		// Fill | outline | stripe of the fill colour | a 3-pixel line | fill again, all inside a third
		// colour: the fill is within reach on both sides, but the stripe borders no fabric.
		const map = paint(70, 50, [
			[0, 0, 70, 50, 3],
			[5, 5, 40, 40, fill],
			[45, 5, 4, 40, outline],
			[49, 5, 3, 40, fill],
			[52, 5, 3, 40, 2],
			[55, 5, 10, 40, fill],
		]);
		const strip = regionAt(map, 50, 20);
		expect(map.regions[strip].area).toBe(3 * 40);
		joinShowingFill(map, strokePx, reachPx);
		expect(regionAt(map, 50, 20)).toBe(strip);
		expect(map.regions[strip].area).toBe(3 * 40);
	});

	it('keeps a stroke that grows out of its own fill a stroke', () => {
		// A 3-pixel stem of the fill colour leaving the body, crossing near an outline.
		const map = paint(60, 60, [
			[5, 5, 30, 30, fill],
			[35, 18, 20, 3, fill],
			[35, 21, 20, 3, outline],
		]);
		const stem = regionAt(map, 45, 19);
		expect(stem).not.toBe(regionAt(map, 20, 20));
		expect(map.regions[stem].stroke).toBe(true);
		joinShowingFill(map, strokePx, reachPx);
		expect(regionAt(map, 45, 19)).toBe(stem);
	});
});

describe('a narrow band on a wide shape', () => {
	// Bands are under 2 mm; one is split off when it covers 8 mm² or more.
	const bandPx = 2 / 0.15;
	const minBandAreaPx = 8 / (0.15 * 0.15);
	/** A `size`-pixel square with a stem 7 pixels (1.05 mm) wide and `stem` pixels long under it. */
	const flower = (size: number, stem: number) => {
		const map = paint(size + 20, size + stem + 10, [
			[5, 5, size, size, fill],
			[5 + size / 2 - 3, 5 + size, 7, stem, fill],
		]);
		splitNarrowBands(map, bandPx, minBandAreaPx);
		return map;
	};

	it('sews the stem under a 6 mm head as a band of its own', () => {
		// A 12 mm stem (12.6 mm²).
		const map = flower(40, 80);
		const head = regionAt(map, 25, 25);
		const stem = regionAt(map, 25, 100);
		expect(stem).not.toBe(head);
		expect(map.regions[stem].stroke).toBeUndefined();
		expect(map.regions[stem].widthPx).toBeGreaterThanOrEqual(6);
		expect(map.regions[stem].widthPx).toBeLessThan(bandPx);
		expect(map.regions[head].widthPx).toBeGreaterThan(2 * bandPx);
		expect(map.regions[head].area + map.regions[stem].area).toBe(40 * 40 + 7 * 80);
	});

	it('leaves a short stub with its shape', () => {
		// 5 mm long: 5.3 mm², under the least band.
		const map = flower(40, 34);
		expect(regionAt(map, 25, 60)).toBe(regionAt(map, 25, 25));
	});

	it('leaves a band between two wide parts with them', () => {
		// Two 6 mm squares joined by a bar 1.05 mm wide and 12 mm long, as the bars of a hatched
		// area run between its wider places: not a stem with a free end.
		const map = paint(60, 150, [
			[5, 5, 40, 40, fill],
			[22, 45, 7, 80, fill],
			[5, 105, 40, 40, fill],
		]);
		splitNarrowBands(map, bandPx, minBandAreaPx);
		expect(regionAt(map, 25, 75)).toBe(regionAt(map, 25, 25));
	});

	it('leaves a band on a shape not twice as wide with it', () => {
		// A 3 mm head: the whole is a narrow shape, sewn as one.
		const map = flower(20, 80);
		expect(regionAt(map, 15, 80)).toBe(regionAt(map, 15, 15));
	});
});
