import { background, findRegions } from '../../../sandbox/digitiser/regions';
import { hiddenRoute, narrowGaps } from '../../../sandbox/digitiser/travel';
import { trimsInsideBlocks, sew, shapePng } from './support/shapes';

/**
 * A 40 x 10 pixel map: a line of thread 0, rows 3-6, from x 2 to 37, broken by bare fabric at
 * x from `gapFrom` to `gapTo`.
 */
function brokenLine(gapFrom: number, gapTo: number) {
	const labels = new Uint8Array(40 * 10).fill(background);
	for (let y = 3; y <= 6; y++) {
		for (let x = 2; x <= 37; x++) if (x < gapFrom || x > gapTo) labels[y * 40 + x] = 0;
	}
	return findRegions(labels, 40, 10);
}

/**
 * Two 80 px blue squares 40 px apart, with a clear margin (at 60 mm, 0.3 mm a pixel: 24 mm
 * squares, 12 mm apart).
 */
const islands =
	'<rect x="10" y="10" width="80" height="80" fill="#0064c8"/>' +
	'<rect x="130" y="10" width="80" height="80" fill="#0064c8"/>';

describe('travel between the pieces of one colour', () => {
	it('runs hidden under the stitching still to come instead of trimming', async () => {
		// A red bridge between the islands, sewn after the (larger) blue: the travel hides under it.
		const bridged = await shapePng(
			`${islands}<rect x="90" y="40" width="40" height="20" fill="#e60000"/>`,
			220,
			100,
		);
		const pattern = await sew(bridged, 60, 2);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(0);
	});

	it('trims where no hidden path exists (bare fabric between the islands)', async () => {
		const pattern = await sew(await shapePng(islands, 220, 100), 60, 1);
		expect(trimsInsideBlocks(pattern)[0]).toBeGreaterThanOrEqual(1);
	});
});

describe('crossing a narrow gap of bare fabric', () => {
	const route = (map: ReturnType<typeof brokenLine>, gaps?: Uint8Array) =>
		hiddenRoute(map, new Uint8Array(40 * 10), 0, [4, 4], [34, 5], 1, 100, gaps);

	it('crosses a 2-pixel break in a line of one colour, which no route could before', () => {
		const map = brokenLine(19, 20);
		expect(route(map)).toBeNull();
		const gaps = narrowGaps(map, 0, 1);
		expect(route(map, gaps)).not.toBeNull();
		// Only the break is crossable: no rim of bare fabric round the line.
		const marked = [...gaps.keys()].filter((i) => gaps[i]).map((i) => [i % 40, Math.floor(i / 40)]);
		expect(marked.length).toBe(8);
		expect(marked.every(([x, y]) => (x === 19 || x === 20) && y >= 3 && y <= 6)).toBe(true);
	});

	it('does not cross a break wider than twice the radius', () => {
		const map = brokenLine(18, 21);
		expect(route(map, narrowGaps(map, 0, 1))).toBeNull();
	});
});
