import { measurePattern, readPattern } from '../../../sandbox/engine';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import { loadFixture, patternOf, type Fixture } from './support/referenceDecoding';

/**
 * Every fixture but Star.EXP: our reader decodes five of its records as jumps where
 * pyembroidery counts stitches, so that reference count differs by design (tested below).
 */
const measuredFixtures = ['Star.DST', 'Star.JEF', 'Star.XXX', 'Star.pes', 'Star.u01'];

describe('measurePattern', () => {
	it('counts stitches, jumps, trims and colour changes separately', () => {
		const pattern = patternOf([
			[0, 0, Command.Jump],
			[0, 0, Command.Stitch],
			[30, 0, Command.Stitch],
			[30, 20, Command.Stitch],
			[30, 20, Command.Trim],
			[100, 50, Command.Jump],
			[100, 50, Command.Stitch],
			[100, 50, Command.ColorChange],
			[120, 60, Command.Stitch],
			[140, 60, Command.Stitch],
			[140, 60, Command.Stop],
			[150, 60, Command.Stitch],
			[150, 60, Command.End],
		]);
		expect(measurePattern(pattern)).toEqual({
			stitchCount: 7,
			jumpCount: 2,
			trimCount: 1,
			colourCount: 2,
			colourChanges: 1,
			widthMm: 15,
			heightMm: 6,
		});
	});

	it('measures the size over needle-down stitches only, not over jumps', () => {
		const pattern = patternOf([
			[-5000, -5000, Command.Jump],
			[-123, 40, Command.Stitch],
			[411, 40, Command.Stitch],
			[411, 317, Command.Stitch],
			[9000, 9000, Command.Jump],
			[9000, 9000, Command.End],
		]);
		const metrics = measurePattern(pattern);
		expect(metrics.widthMm).toBe(53.4);
		expect(metrics.heightMm).toBe(27.7);
	});

	it('counts only colour blocks that sew something', () => {
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[10, 0, Command.Stitch],
			[10, 0, Command.ColorChange],
			[10, 0, Command.ColorChange],
			[20, 0, Command.Stitch],
			[20, 0, Command.ColorChange],
			[20, 0, Command.Jump],
			[20, 0, Command.End],
		]);
		const metrics = measurePattern(pattern);
		expect(metrics.colourChanges).toBe(3);
		expect(metrics.colourCount).toBe(2);
	});

	it('reports zeros for a pattern with nothing sewn', () => {
		expect(measurePattern(new Pattern())).toEqual({
			stitchCount: 0,
			jumpCount: 0,
			trimCount: 0,
			colourCount: 0,
			colourChanges: 0,
			widthMm: 0,
			heightMm: 0,
		});
		const onlyMoves = patternOf([
			[0, 0, Command.Jump],
			[500, 500, Command.Jump],
			[500, 500, Command.End],
		]);
		expect(measurePattern(onlyMoves)).toMatchObject({
			jumpCount: 2,
			colourCount: 0,
			widthMm: 0,
			heightMm: 0,
		});
	});
});

/** The metrics pyembroidery's independent decoding implies; a needle set after sewing starts changes colour. */
function referenceMetrics({ commands, expected }: Fixture) {
	let stitchCount = 0;
	let colourChanges = 0;
	let colourCount = 0;
	let blockSewn = false;
	for (const [, , command] of commands) {
		if (command === 'STITCH') {
			stitchCount++;
			if (!blockSewn) colourCount++;
			blockSewn = true;
		} else if (command === 'COLOR_CHANGE' || (command === '9' && stitchCount > 0)) {
			colourChanges++;
			blockSewn = false;
		}
	}
	const [minX, minY, maxX, maxY] = expected['bounds_0.1mm'];
	return {
		stitchCount,
		colourChanges,
		colourCount,
		widthMm: (maxX - minX) / 10,
		heightMm: (maxY - minY) / 10,
	};
}

describe('measurePattern on real files', () => {
	it.each(measuredFixtures)('%s measures as the independent decoding says', (name) => {
		const fixture = loadFixture(name);
		const reference = referenceMetrics(fixture);
		expect(reference.stitchCount).toBe(fixture.expected.commandCounts.STITCH);
		expect(measurePattern(readPattern(fixture.bytes))).toMatchObject(reference);
	});

	it('Star.EXP measures like Star.DST, the same design whose moves are jumps too', () => {
		const exp = measurePattern(readPattern(loadFixture('Star.EXP').bytes));
		const dst = measurePattern(readPattern(loadFixture('Star.DST').bytes));
		const { stitchCount, colourCount, colourChanges, widthMm, heightMm } = dst;
		expect(exp).toMatchObject({ stitchCount, colourCount, colourChanges, widthMm, heightMm });
	});
});
