import { trimsInsideBlocks, sew, shapePng } from './support/shapes';

/**
 * Two 80 px blue squares 40 px apart, with a clear margin (at 60 mm, 0.3 mm a pixel: 24 mm
 * squares, 12 mm apart).
 */
const islands =
	'<rect x="10" y="10" width="80" height="80" fill="#0064c8"/>' +
	'<rect x="130" y="10" width="80" height="80" fill="#0064c8"/>';

describe('travel between the pieces of one colour', () => {
	it('runs hidden under the stitching still to come instead of trimming', async () => {
		// A red bridge between the islands, sewn after the (larger) blue: the travel hides under it.
		const bridged = await shapePng(
			`${islands}<rect x="90" y="40" width="40" height="20" fill="#e60000"/>`,
			220,
			100,
		);
		const pattern = await sew(bridged, 60, 2);
		expect(pattern.threads[0].name).toBe('Blue');
		expect(trimsInsideBlocks(pattern)[0]).toBe(0);
	});

	it('trims where no hidden path exists (bare fabric between the islands)', async () => {
		const pattern = await sew(await shapePng(islands, 220, 100), 60, 1);
		expect(trimsInsideBlocks(pattern)[0]).toBeGreaterThanOrEqual(1);
	});
});
