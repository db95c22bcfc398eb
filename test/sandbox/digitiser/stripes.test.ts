import { digitise } from '../../../sandbox/digitiser';
import { Command, type Pattern } from '../../../sandbox/engine/pattern';
import { shapePng } from './support/shapes';

/**
 * A square of red stripes 0.4 mm wide, their centres 0.5 mm apart, on black (drawn at 10 px/mm
 * without anti-aliasing, as the benchmark draws a professional's open rows over a fill): the black
 * shows only in gaps 0.1 mm wide, one source pixel and none or one of the 0.15 mm working grid.
 */
const stripeCount = 34;
const period = 5;
const left = 20;
const side = period * stripeCount;
/** Sewn 17.3 mm wide: the square's 170 px, less pull compensation at both sides, are 0.1 mm each. */
const widthMm = 17.3;
const mmPerPx = 0.1;

async function stripedSquare(vertical: boolean): Promise<Buffer> {
	const stripes = Array.from({ length: stripeCount }, (_, k) => {
		const at = left + period * k + 1;
		return vertical
			? `<rect x="${at}" y="${left}" width="4" height="${side}" fill="#e60000"/>`
			: `<rect x="${left}" y="${at}" width="${side}" height="4" fill="#e60000"/>`;
	}).join('');
	return shapePng(
		`<g shape-rendering="crispEdges"><rect x="${left}" y="${left}" width="${side}" height="${side}" ` +
			`fill="#000000"/>${stripes}</g>`,
		2 * left + side,
		2 * left + side,
	);
}

/** Needle-down positions of one colour block, in millimetres from the square's middle. */
function blockStitches(pattern: Pattern, block: number): Array<[number, number]> {
	const points: Array<[number, number]> = [];
	let current = 0;
	for (let i = 0; i < pattern.length; i++) {
		if (pattern.commands[i] === Command.ColorChange) current++;
		else if (current === block && pattern.commands[i] === Command.Stitch)
			points.push([pattern.xs[i] / 10, pattern.ys[i] / 10]);
	}
	return points;
}

describe('flat artwork striped in two colours', () => {
	it.each([
		['vertical', true],
		['horizontal', false],
	])(
		'sews %s stripes as running lines on their centres over a fill of the colour between them',
		async (_, vertical) => {
			const { pattern } = await digitise(await stripedSquare(vertical), {
				widthMm,
				colourCount: 2,
			});
			// The colour that shows between the stripes is sewn first, under the whole square.
			expect(pattern.threads.map((thread) => thread.color)).toEqual([0x000000, 0xe60000]);
			const fill = blockStitches(pattern, 0);
			const xs = fill.map(([x]) => x);
			const ys = fill.map(([, y]) => y);
			// (Sewn at 17.3 mm, the square's 170 px are about 0.1 mm each.)
			expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(16.5);
			expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(16.5);
			// Then one red running line per stripe along its whole length: each line's holes on one
			// track (the needle's 0.1 mm grid), the lines 0.5 mm apart to within 0.06 mm (the grid's
			// rounding, up to 0.05, and the trace's own error) and centred on the square. The spacing
			// is fitted: pull compensation widens the design only along the fill's rows.
			const across = (x: number, y: number) => (vertical ? x : y);
			const along = (x: number, y: number) => (vertical ? y : x);
			const lines = new Map<number, number[][]>();
			for (const [x, y] of blockStitches(pattern, 1)) {
				const key = Math.round(across(x, y) * 100);
				const near = [...lines.keys()].find((other) => Math.abs(other - key) <= 10);
				lines.set(near ?? key, [...(lines.get(near ?? key) ?? []), [across(x, y), along(x, y)]]);
			}
			expect(lines.size).toBe(stripeCount);
			const centres = [...lines.values()]
				.map((holes) => {
					const spread = holes.map(([a]) => a);
					expect(Math.max(...spread) - Math.min(...spread)).toBeLessThanOrEqual(0.1 + 1e-9);
					const length = holes.map(([, b]) => b);
					expect(Math.max(...length) - Math.min(...length)).toBeGreaterThan(16);
					return spread.reduce((sum, a) => sum + a, 0) / spread.length;
				})
				.sort((a, b) => a - b);
			// Least squares: centre k = first + k * spacing.
			const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
			const ks = centres.map((_, k) => k);
			const kMean = mean(ks);
			const cMean = mean(centres);
			const spacing =
				ks.reduce((sum, k, i) => sum + (k - kMean) * (centres[i] - cMean), 0) /
				ks.reduce((sum, k) => sum + (k - kMean) * (k - kMean), 0);
			expect(Math.abs(spacing - period * mmPerPx)).toBeLessThan(0.02);
			// Rounding to the 0.1 mm grid moves a line up to 0.05 mm; the trace itself adds under 0.01.
			centres.forEach((centre, k) =>
				expect(Math.abs(centre - cMean - (k - kMean) * spacing)).toBeLessThanOrEqual(0.06),
			);
			const middle =
				(Math.max(...fill.map(([x, y]) => across(x, y))) +
					Math.min(...fill.map(([x, y]) => across(x, y)))) /
				2;
			// The fill's edges lie on the 0.15 mm working grid, so its middle is known to 0.075 mm; a line
			// on a stripe's edge instead of its middle would be 0.2 mm off.
			expect(Math.abs(cMean - middle)).toBeLessThanOrEqual(0.13);
		},
	);

	it('keeps a stripe texture with gaps wider than a thread as two areas of their own', async () => {
		// Red bars 0.4 mm wide with 0.8 mm of black between: not a fine mix, so no fill of black
		// under red lines; each colour is its own shape (black bars are satin or fill of their own).
		const bars = Array.from(
			{ length: 14 },
			(_, k) =>
				`<rect x="${left + 12 * k}" y="${left}" width="4" height="${side}" fill="#e60000"/>`,
		).join('');
		const png = await shapePng(
			`<g shape-rendering="crispEdges"><rect x="${left}" y="${left}" width="${side}" ` +
				`height="${side}" fill="#000000"/>${bars}</g>`,
			2 * left + side,
			2 * left + side,
		);
		const { pattern } = await digitise(png, { widthMm, colourCount: 2 });
		const red = pattern.threads.findIndex((thread) => thread.color === 0xe60000);
		const black = pattern.threads.findIndex((thread) => thread.color === 0x000000);
		expect(red).toBeGreaterThanOrEqual(0);
		expect(black).toBeGreaterThanOrEqual(0);
		// The black between the bars is sewn in its own shapes, not as one fill under the square:
		// no black stitch lies on a red bar's centre line.
		const onBar = blockStitches(pattern, black).filter(([x]) => {
			const px = x / mmPerPx + side / 2 - 2;
			return Math.abs(px - 12 * Math.round(px / 12)) * mmPerPx < 0.1;
		});
		expect(onBar.length).toBeLessThan(blockStitches(pattern, black).length * 0.1);
	});
});
