import { segmentsByBlock, sew, shapePng } from './support/shapes';

describe('tatami fill', () => {
	it('turns from row to row without short stitches along the edge', async () => {
		// An ellipse 40 x 20 mm (0.1 mm a pixel): long rows along it, curved ends. A join stitch
		// between rows would make one short stitch a row, about 8% of them.
		const png = await shapePng(
			'<ellipse cx="210" cy="110" rx="200" ry="100" fill="#1060c0"/>',
			420,
			220,
		);
		const [fill] = segmentsByBlock(await sew(png, 40, 1));
		const short = fill.filter((s) => s.length < 1);
		// Tie-ins and tie-offs (0.7 mm) and a few rows at the tips are all that may be short.
		expect(fill.length).toBeGreaterThan(600);
		expect(short.length / fill.length).toBeLessThanOrEqual(0.02);
	});
});
