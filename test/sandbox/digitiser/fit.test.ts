import { fitToWidth, type ExactPoints } from '../../../sandbox/digitiser/fit';
import { Command, Pattern } from '../../../sandbox/engine/pattern';

/** A pattern of stitches at the given points (design units), with the points as planned. */
function planned(points: Array<[number, number]>): { pattern: Pattern; exact: ExactPoints } {
	const pattern = new Pattern(16);
	const exact: ExactPoints = { xs: [], ys: [] };
	for (const [x, y] of points) {
		pattern.add(x, y, Command.Stitch);
		exact.xs.push(x);
		exact.ys.push(y);
	}
	pattern.add(points[points.length - 1][0], points[points.length - 1][1], Command.End);
	exact.xs.push(points[points.length - 1][0]);
	exact.ys.push(points[points.length - 1][1]);
	return { pattern, exact };
}

describe('fitting a planned design to its width', () => {
	it('puts every needle within half a grid step of where it was planned, scaled', () => {
		// 10.45 units is written as 10; scaled by 1.99 it belongs at 20.8. Scaling the written point
		// and rounding again would put it at 20, 0.08 mm off; rounded once it is at 21.
		const points: Array<[number, number]> = [
			[0, 0],
			[10.45, 3.3],
			[37.26, -12.74],
			[61.5, 40.45],
			[100, 7.7],
		];
		const { pattern, exact } = planned(points);
		const scale = fitToWidth(pattern, exact, 19.9, [0, 0]);
		expect(scale).toBeCloseTo(1.99, 10);
		expect(pattern.xs[4] - pattern.xs[0]).toBe(199);
		points.forEach(([x, y], i) => {
			expect(Math.abs(pattern.xs[i] - pattern.xs[0] - x * scale)).toBeLessThanOrEqual(0.5);
			expect(Math.abs(pattern.ys[i] - y * scale)).toBeLessThanOrEqual(0.5);
		});
		expect(pattern.xs[1]).toBe(21);
	});

	it('spans the width exactly from needle to needle, moving the middle given to the origin', () => {
		const { pattern, exact } = planned([
			[-40.3, 0],
			[12.2, 5],
			[59.9, -5],
		]);
		fitToWidth(pattern, exact, 50, [10, 0]);
		expect(pattern.xs[2] - pattern.xs[0]).toBe(500);
		// The middle of the needles (9.8 units) is 0.2 units left of the middle given, scaled by 4.99.
		expect(
			Math.abs((pattern.xs[0] + pattern.xs[2]) / 2 - -0.2 * (500 / 100.2)),
		).toBeLessThanOrEqual(0.5);
	});
});
