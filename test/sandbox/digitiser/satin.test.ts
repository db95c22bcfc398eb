import { segmentsByBlock, sew, shapePng } from './support/shapes';

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
		// Top satin: across the whole width and a little more (pull compensation).
		const top = bar.filter((s) => across(s) >= 5);
		// Zigzag underlay: across all but 0.4 mm at each edge, slanted by about 1.8 mm along the bar.
		const zigzag = bar.filter(
			(s) => across(s) >= 3.9 && across(s) <= 4.4 && Math.abs(s.bx - s.ax) >= 1.2,
		);
		// Edge walk: along the bar, 0.4 mm inside an edge.
		const ys = top.flatMap((s) => [s.ay, s.by]);
		const edge = Math.min(...ys) + 0.15;
		const walk = bar.filter(
			(s) => across(s) < 0.1 && s.length >= 1 && Math.abs(s.ay - (edge + 0.4)) <= 0.2,
		);
		expect(top.length).toBeGreaterThan(400);
		expect(zigzag.length).toBeGreaterThan(100 / 1.8 - 5);
		expect(walk.length).toBeGreaterThan(100 / 1.8 - 5);
	});
});
