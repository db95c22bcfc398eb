import { halfThreadMm } from '../../../sandbox/digitiser/satin';
import { pullCompensationMm } from '../../../sandbox/digitiser/sewing';
import {
	pooledMm,
	segmentsByBlock,
	sew,
	shapePng,
	slantedBandsPng,
	straightnessMm,
} from './support/shapes';

/** How far a satin's holes lie past the drawn edge: the compensation less half a thread. */
const holesPastEdgeMm = pullCompensationMm - halfThreadMm;

describe('satin underlay', () => {
	it('lays an edge walk and a zigzag inside a 5 mm column before its satin', async () => {
		// A bar 100 x 5 mm at 0.25 mm a pixel: one straight satin column.
		const png = await shapePng(
			'<rect x="10" y="10" width="400" height="20" fill="#0064c8"/>',
			420,
			40,
		);
		const [bar] = segmentsByBlock(await sew(png, 100, 1));
		const across = (s: (typeof bar)[number]) => Math.abs(s.by - s.ay);
		// Top satin: across the whole width, less half a thread and plus the compensation each side.
		const top = bar.filter((s) => across(s) >= 5 + 2 * holesPastEdgeMm - 0.1);
		// Zigzag underlay: across all but 0.4 mm at each edge, slanted by about 1.8 mm along the bar.
		const zigzag = bar.filter(
			(s) => across(s) >= 3.9 && across(s) <= 4.4 && Math.abs(s.bx - s.ax) >= 1.2,
		);
		// Edge walk: along the bar, 0.4 mm inside an edge.
		const ys = top.flatMap((s) => [s.ay, s.by]);
		const edge = Math.min(...ys) - holesPastEdgeMm;
		const walk = bar.filter(
			(s) => across(s) < 0.1 && s.length >= 1 && Math.abs(s.ay - (edge + 0.4)) <= 0.2,
		);
		expect(top.length).toBeGreaterThan(400);
		expect(zigzag.length).toBeGreaterThan(100 / 1.8 - 5);
		expect(walk.length).toBeGreaterThan(100 / 1.8 - 5);
	});

	it('covers a 5 mm band 5 mm wide, plus the pull compensation', async () => {
		const png = await shapePng(
			'<rect x="10" y="10" width="400" height="20" fill="#0064c8"/>',
			420,
			40,
		);
		const [bar] = segmentsByBlock(await sew(png, 100, 1));
		const spans = bar
			.map((s) => Math.abs(s.by - s.ay))
			.filter((span) => span >= 4)
			.sort((a, b) => a - b);
		// Thread covers its stitch and half a thread past each hole (before: 5.3 mm of stitch
		// covered 5.7 mm, a thread's width more than drawn). Holes are recorded to 0.1 mm.
		const covered = spans[Math.floor(spans.length / 2)] + 2 * halfThreadMm;
		expect(covered).toBeGreaterThanOrEqual(5 - 0.1 - 1e-9);
		expect(covered).toBeLessThanOrEqual(5 + 2 * pullCompensationMm + 0.1 + 1e-9);
	});
});

describe('satin on artwork finer than the working grid', () => {
	it("puts a slanted band's holes along its edges as the artwork's own pixels draw them", async () => {
		// Four bands 3 mm deep. The working grid's traced edge steps a working pixel at a time; the
		// artwork's own pixels place each edge to 0.05 mm. Holes are recorded to 0.1 mm, which alone
		// leaves about 0.03 mm.
		const blocks = segmentsByBlock(await sew(await slantedBandsPng(60, 300, 200), 60, 4));
		expect(blocks).toHaveLength(4);
		const straightness = blocks.flatMap((block) => {
			// Top satin: across the band (the zigzag underlay slants 1.8 mm along it).
			const satin = block.filter(
				(s) => Math.abs(s.by - s.ay) >= 2.5 && Math.abs(s.bx - s.ax) < 0.6 && Math.abs(s.bx) < 25,
			);
			expect(satin.length).toBeGreaterThan(200);
			const upper = satin.map((s): [number, number] => (s.ay < s.by ? [s.ax, s.ay] : [s.bx, s.by]));
			const lower = satin.map((s): [number, number] => (s.ay < s.by ? [s.bx, s.by] : [s.ax, s.ay]));
			return [straightnessMm(upper), straightnessMm(lower)];
		});
		expect(pooledMm(straightness)).toBeLessThanOrEqual(0.036);
	});
});
