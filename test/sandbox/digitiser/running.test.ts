import {
	boxOf,
	pooledMm,
	segmentsByBlock,
	sew,
	shapePng,
	slantedBandsPng,
	straightnessMm,
	type Segment,
} from './support/shapes';

/** Area of the box round a block's needle holes, mm². */
function boxArea(block: Segment[]): number {
	const box = boxOf(block);
	return (box.maxX - box.minX) * (box.maxY - box.minY);
}

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
		'sews a %s mm line out and back along its centre line, each pass half a thread inside an edge',
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
			// Each pass half a thread (0.2 mm) inside one edge: on the middle for a line a thread
			// wide, 0.1 mm and 0.175 mm to either side of it for the 0.6 and 0.75 mm lines, so the two
			// threads cover the line as drawn (before: both passes on the middle, covering 0.4 mm of
			// a 0.75 mm line and leaving its neighbour's colour showing along each side). Holes are
			// recorded to 0.1 mm and the line's edges fall on a 0.15 mm grid.
			const side = Math.max(0, lineMm / 2 - 0.2);
			const offsets = ys.map((y) => y - middle);
			expect(Math.max(...offsets.map((d) => Math.abs(Math.abs(d) - side)))).toBeLessThanOrEqual(
				0.15,
			);
			if (side >= 0.05) {
				// Out on one side, back on the other: about as many holes each side.
				const above = offsets.filter((d) => d > 0).length / offsets.length;
				expect(above).toBeGreaterThanOrEqual(0.35);
				expect(above).toBeLessThanOrEqual(0.65);
			} else {
				// The way back pierces the holes of the way out: each hole is used twice.
				expect(sharedHoles(line)).toBeGreaterThanOrEqual(0.8);
			}
			// The run reaches both ends of the 60 mm line, where a drawn line's stitch ends (before:
			// thinning left each tip half the line's width short of its end).
			const xs = holes(line).map(([x]) => x);
			expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThanOrEqual(60 - 0.15);
		},
	);
	it('sews a lattice of thin lines as running stitch along each line, not as fill', async () => {
		// A 6 x 6 grid of 0.45 mm lines 3 mm apart (0.15 mm a pixel): one region, mostly holes.
		const lines: string[] = [];
		for (let k = 0; k <= 6; k++) {
			lines.push(`<rect x="${10 + k * 20}" y="10" width="3" height="123" fill="#000000"/>`);
			lines.push(`<rect x="10" y="${10 + k * 20}" width="123" height="3" fill="#000000"/>`);
		}
		const png = await shapePng(lines.join(''), 143, 143);
		const [grid] = segmentsByBlock(await sew(png, 123 * 0.15, 1));
		const xs = grid.map((s) => s.bx);
		const ys = grid.map((s) => s.by);
		const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
		const pitch = (Math.max(...xs) - minX) / 6;
		// Every hole lies on one of the lines (within 0.3 mm of its centre: holes are recorded to
		// 0.1 mm, the lines fall on a 0.15 mm grid, and a line drawn 4 pixels wide there is 0.6 mm,
		// sewn with each pass 0.1 mm to one side of its middle).
		const offLine = holes(grid).filter(([x, y]) => {
			const u = (x - minX) % pitch;
			const v = (y - minY) % pitch;
			const near = (t: number) => Math.min(t, pitch - t) <= 0.3;
			return !near(u) && !near(v);
		});
		expect(offLine.length).toBeLessThanOrEqual(grid.length * 0.02);
		// Out and back on one track where a line is drawn 3 pixels (0.45 mm) wide: over half the
		// holes are pierced twice (a fill pierces each once); the lines drawn 4 pixels wide are sewn
		// on two tracks 0.2 mm apart.
		expect(sharedHoles(grid)).toBeGreaterThanOrEqual(0.5);
		// Thread about twice the lines' length (out and back), not a fill's many rows.
		const thread = grid.reduce((sum, s) => sum + s.length, 0);
		expect(thread).toBeGreaterThan(14 * 18 * 1.6);
		expect(thread).toBeLessThan(14 * 18 * 2.6);
	});
});

describe('running stitch on artwork finer than the working grid', () => {
	it("follows slanted lines' centres as the artwork's own pixels draw them", async () => {
		// Four lines 0.4 mm wide. On the working grid a line's edges step a working pixel at a time,
		// and a run between them wanders up to 0.075 mm about the line; the artwork's own pixels place
		// each edge to 0.05 mm. Holes are recorded to 0.1 mm, which alone leaves about 0.03 mm.
		const blocks = segmentsByBlock(await sew(await slantedBandsPng(8, 250, 150), 60, 4));
		expect(blocks).toHaveLength(4);
		const straightness = blocks.map((block) => {
			const inner = holes(block).filter(([x]) => Math.abs(x) < 25);
			expect(inner.length).toBeGreaterThan(60);
			return straightnessMm(inner);
		});
		expect(pooledMm(straightness)).toBeLessThanOrEqual(0.032);
	});
});

describe('running stitch to the ends of a slanted line', () => {
	it.each([44, 134, 152])('sews a 20 mm line at %s degrees from end to end', async (degrees) => {
		// At 0.1 mm a pixel: a 40 mm frame of 0.4 mm lines (their middles set the width) and inside
		// it a 0.4 mm line 20 mm long in another colour. Thinning eats a line at a slant to the
		// pixels from its ends, and the tip was looked for only half a width further on, along the
		// last two pixels' stair step (before: sewn 17.97, 14.79 and 19.41 mm long).
		const ux = Math.cos((degrees * Math.PI) / 180);
		const uy = Math.sin((degrees * Math.PI) / 180);
		const corner = (along: number, across: number) =>
			`${220 + along * ux - across * uy},${220 + along * uy + across * ux}`;
		const png = await shapePng(
			'<rect x="18" y="18" width="404" height="4"/><rect x="18" y="418" width="404" height="4"/>' +
				'<rect x="18" y="18" width="4" height="404"/><rect x="418" y="18" width="4" height="404"/>' +
				'<polygon shape-rendering="crispEdges" fill="#0064c8" points="' +
				[corner(-100, -2), corner(100, -2), corner(100, 2), corner(-100, 2)].join(' ') +
				'"/>',
			440,
			440,
		);
		const blocks = segmentsByBlock(await sew(png, 40, 2));
		expect(blocks).toHaveLength(2);
		// The line's block: the one whose holes lie along one direction.
		const line = blocks.reduce((a, b) => (boxArea(a) <= boxArea(b) ? a : b));
		const along = holes(line).map(([x, y]) => x * ux + y * uy);
		expect(Math.max(...along) - Math.min(...along)).toBeGreaterThanOrEqual(20 - 0.2);
		expect(Math.max(...along) - Math.min(...along)).toBeLessThanOrEqual(20 + 0.2);
	});
});
