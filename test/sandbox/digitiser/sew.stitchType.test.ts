import { angleTo, segmentsByBlock, sew, shapePng } from './support/shapes';

describe('the stitch type for each shape', () => {
	it.each([0.45, 0.6])('sews a %s mm line as a running stitch along it', async (lineMm) => {
		// A 400 px line sewn 60 mm long: 0.15 mm a pixel.
		const thickness = lineMm / 0.15;
		const png = await shapePng(
			`<rect x="10" y="20" width="400" height="${thickness}" fill="#000000"/>`,
			420,
			40,
		);
		const [line] = segmentsByBlock(await sew(png, 60, 1));
		const stitches = line.filter((s) => s.length >= 0.5);
		// Along the line, never across it (a satin would cross it at every stitch); the run turns
		// at the line's ends and ties in with short stitches.
		expect(stitches.length).toBeGreaterThanOrEqual(60 / 2);
		expect(stitches.filter((s) => angleTo(s, 1, 0) > 20)).toEqual([]);
		const along = stitches.filter((s) => angleTo(s, 1, 0) <= 5 && s.length >= 1);
		expect(along.length / stitches.length).toBeGreaterThanOrEqual(0.9);
	});
});
