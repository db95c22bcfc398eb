import { segmentsByBlock, sew, shapePng, type Segment } from './support/shapes';

/** Needle holes of a block's stitches (the end of each stitch), in millimetres. */
function holes(block: Segment[]): Array<[number, number]> {
	return block.map((s): [number, number] => [s.bx, s.by]);
}

/** Share of a block's holes that it pierces more than once. */
function sharedHoles(block: Segment[]): number {
	const counts = new Map<string, number>();
	for (const [x, y] of holes(block)) {
		const key = `${x.toFixed(1)},${y.toFixed(1)}`;
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return [...counts.values()].filter((n) => n >= 2).length / counts.size;
}

describe('running stitch on a line', () => {
	it.each([0.45, 0.6, 0.75])(
		'sews a %s mm line on its centre line, the return pass on the first',
		async (lineMm) => {
			// A level line 60 mm long on a canvas 0.15 mm a pixel, with a square beside it so its
			// edges are not the design's (the line's width is what is measured, not the fit).
			const thickness = lineMm / 0.15;
			const png = await shapePng(
				`<rect x="10" y="40" width="400" height="${thickness}" fill="#000000"/>` +
					`<rect x="10" y="70" width="400" height="30" fill="#0064c8"/>`,
				420,
				110,
			);
			const blocks = segmentsByBlock(await sew(png, 60, 2));
			// The line is the block whose holes lie in one narrow band.
			const spread = (block: Segment[]) => {
				const ys = block.map((s) => s.by);
				return Math.max(...ys) - Math.min(...ys);
			};
			const line = blocks.reduce((a, b) => (spread(a) <= spread(b) ? a : b));
			const ys = holes(line)
				.filter(([x]) => x > -25 && x < 25)
				.map(([, y]) => y);
			// The drawn centre line, found from the square's middle (its holes are symmetric about it).
			const square = blocks.find((block) => block !== line) as Segment[];
			const squareYs = holes(square).map(([, y]) => y);
			const squareMiddle = (Math.max(...squareYs) + Math.min(...squareYs)) / 2;
			const middle = squareMiddle - (85 - (40 + thickness / 2)) * (60 / 400);
			// Every hole within a third of a millimetre of the centre line (before: the two passes
			// lay apart, each pulled in from one edge, and a 0.75 mm line's reached 0.4 mm out).
			expect(Math.max(...ys.map((y) => Math.abs(y - middle)))).toBeLessThanOrEqual(0.15);
			// The way back pierces the holes of the way out: each hole is used twice.
			expect(sharedHoles(line)).toBeGreaterThanOrEqual(0.8);
		},
	);
});
