import { background, findRegions } from '../../../sandbox/digitiser/regions';
import { hiddenRoute, narrowGaps, threadBox } from '../../../sandbox/digitiser/travel';
import { segmentsByBlock, trimsInsideBlocks, sew, shapePng } from './support/shapes';

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

/**
 * The islands joined by a red bar `height` pixels tall from `y`, sewn at 60 mm in 2 colours: the
 * pattern, and the blue stitches between the islands (their middles within 5 mm of the centre).
 */
async function islandsJoined(y: number, height: number) {
	const bar = `<rect x="90" y="${y}" width="40" height="${height}" fill="#e60000"/>`;
	const pattern = await sew(await shapePng(`${islands}${bar}`, 220, 100), 60, 2);
	const between = segmentsByBlock(pattern)[0].filter((s) => Math.abs((s.ax + s.bx) / 2) < 5);
	return { pattern, between };
}

describe('travel between the pieces of one colour', () => {
	it('runs hidden under the stitching still to come instead of trimming', async () => {
		// A red bridge 5.5 mm wide between the islands, sewn after the (larger) blue: the travel hides under it.
		const { pattern, between } = await islandsJoined(40, 20);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(0);
		// The blue stitches over the bridge are the run: 2-3 mm, as a professional travels, not cut into
		// short pieces.
		expect(between.length).toBeGreaterThanOrEqual(3);
		for (const stitch of between) expect(stitch.length).toBeGreaterThanOrEqual(2);
	});

	it('fills a branching shape without a trim: the rows nearest across bare fabric wait their turn', async () => {
		// A trunk with three pairs of branches, 12 mm wide (too wide for satin): its fill rows fall into
		// sections branch by branch. The section nearest the needle often lies across bare fabric, in the
		// next branch, more than a hidden route may run; the sections a route reaches are sewn first.
		const tree =
			'<path fill="none" stroke="#0064c8" stroke-width="48" stroke-linecap="round" ' +
			'd="M200 380 V40 M200 300 L60 200 M200 300 L340 200 M200 200 L60 100 M200 200 L340 100 ' +
			'M200 120 L90 40 M200 120 L310 40"/>';
		const pattern = await sew(await shapePng(tree, 400, 400), 100, 1);
		// Nearest first, the needle jumped and trimmed 5 times.
		expect(trimsInsideBlocks(pattern)).toEqual([0]);
	});

	it('runs the edge-run underlay round holes without a trim: the nearest hole across bare fabric waits', async () => {
		// A U of two arms 12 mm wide, 3 mm apart (about 0.1 mm a pixel), each with a column of holes 1 mm
		// across near the gap: a hole faces one in the other arm 6 mm away, the next in its own arm lies
		// 7-8 mm on. Each hole's outline is underlay; nearest first, the needle jumped the gap and trimmed.
		for (const step of [70, 80]) {
			let holes = '';
			for (let y = 40; y < 340; y += step) {
				holes += `<circle cx="115" cy="${y}" r="5"/><circle cx="175" cy="${y}" r="5"/>`;
			}
			const pattern = await sew(
				await shapePng(
					`<mask id="m"><rect width="290" height="480" fill="white"/>${holes}</mask>` +
						'<path mask="url(#m)" fill="#0064c8" d="M10 10 H130 V350 H160 V10 H280 V470 H10 Z"/>',
					290,
					480,
				),
				27,
				1,
			);
			expect(trimsInsideBlocks(pattern)).toEqual([0]);
		}
	});

	it('does not run under a line of another thread, which is sewn one thread wide: it trims', async () => {
		// A red line 0.55 mm wide (2 px) between the islands, sewn after the blue as a running stitch: a
		// blue run under it would show either side of it, a dark line along a light one.
		const { pattern, between } = await islandsJoined(49, 2);
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Blue', 'Red']);
		expect(trimsInsideBlocks(pattern)[0]).toBe(1);
		expect(between).toEqual([]);
	});

	it('crosses a line of another thread that cuts a shape in two, without a trim', async () => {
		// The same red line across a blue band: the blue halves are joined by a run across the line.
		const cut = await shapePng(
			'<rect x="10" y="10" width="200" height="80" fill="#0064c8"/>' +
				'<rect x="109" y="10" width="2" height="80" fill="#e60000"/>',
			220,
			100,
		);
		const pattern = await sew(cut, 60, 2);
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Blue', 'Red']);
		expect(trimsInsideBlocks(pattern)[0]).toBe(0);
	});

	it('trims where no hidden path exists (bare fabric between the islands)', async () => {
		const pattern = await sew(await shapePng(islands, 220, 100), 60, 1);
		expect(trimsInsideBlocks(pattern)[0]).toBeGreaterThanOrEqual(1);
	});
});

describe('the needle holes of a hidden route', () => {
	it('spaces them evenly, as near the stitch length as a whole number of stitches allows', () => {
		const map = brokenLine(100, 100);
		const holes = hiddenRoute(
			map,
			new Uint8Array(40 * 10),
			0,
			[4, 4],
			[34, 5],
			1,
			100,
			undefined,
			4,
		);
		expect(holes).not.toBeNull();
		expect(holes![0]).toEqual([4, 4]);
		expect(holes![holes!.length - 1]).toEqual([34, 5]);
		for (let k = 1; k < holes!.length; k++) {
			const length = Math.hypot(holes![k][0] - holes![k - 1][0], holes![k][1] - holes![k - 1][1]);
			expect(length).toBeGreaterThan(3.5);
			expect(length).toBeLessThan(4.5);
		}
	});

	it('keeps a corner only where cutting across it would leave hidden ground', () => {
		// An L of thread 0: along row 2 from x 2 to 30, then down column 28-30 to row 27.
		const labels = new Uint8Array(40 * 30).fill(background);
		for (let x = 2; x <= 30; x++) for (let y = 1; y <= 3; y++) labels[y * 40 + x] = 0;
		for (let y = 1; y <= 27; y++) for (let x = 28; x <= 30; x++) labels[y * 40 + x] = 0;
		const map = findRegions(labels, 40, 30);
		const holes = hiddenRoute(
			map,
			new Uint8Array(40 * 30),
			0,
			[3, 2.5],
			[29.5, 26],
			1,
			200,
			undefined,
			5,
		);
		expect(holes).not.toBeNull();
		// Every stitch stays on the L: its middle is on thread 0.
		for (let k = 1; k < holes!.length; k++) {
			const x = Math.floor((holes![k][0] + holes![k - 1][0]) / 2);
			const y = Math.floor((holes![k][1] + holes![k - 1][1]) / 2);
			expect(labels[y * 40 + x]).toBe(0);
		}
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

describe("the box a thread's per-thread passes walk", () => {
	it("is the union of its regions' boxes, so the passes need not scan the whole map", () => {
		// Two pieces of thread 0 (the broken line) and one of thread 1 below them, on a 40 x 10 map.
		const labels = new Uint8Array(40 * 10).fill(background);
		for (let y = 3; y <= 5; y++) {
			for (let x = 2; x <= 37; x++) if (x < 19 || x > 22) labels[y * 40 + x] = 0;
		}
		for (let x = 10; x <= 12; x++) labels[8 * 40 + x] = 1;
		const map = findRegions(labels, 40, 10);
		expect(threadBox(map, 0)).toEqual([2, 3, 37, 5]);
		expect(threadBox(map, 1)).toEqual([10, 8, 12, 8]);
		expect(threadBox(map, 2)).toBeNull();
		// The gaps found inside that box are the ones a closing of the whole map finds: the break only.
		const gaps = narrowGaps(map, 0, 2);
		const marked = [...gaps.keys()].filter((i) => gaps[i]).map((i) => [i % 40, Math.floor(i / 40)]);
		expect(marked.length).toBe(12);
		expect(marked.every(([x, y]) => x >= 19 && x <= 22 && y >= 3 && y <= 5)).toBe(true);
	});
});
