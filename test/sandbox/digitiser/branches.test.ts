import { angleTo, boxOf, segmentsByBlock, sew, shapePng, type Segment } from './support/shapes';

/** Satin stitches (not underlay, not travel) across a band 4 mm wide: its width and compensation. */
const acrossBand = (s: Segment) => s.length >= 3.8 && s.length <= 4.8;

/** Share of the stitches within 15 degrees of a direction. */
function shareAlong(stitches: Segment[], dx: number, dy: number): number {
	return stitches.filter((s) => angleTo(s, dx, dy) <= 15).length / stitches.length;
}

describe('branched bands sewn as satin columns', () => {
	it('sews each arm of a T of 4 mm bands as a satin across that arm', async () => {
		// A bar 360 px long and a stem 260 px long, both 16 px wide, butt ends: at 90 mm a pixel is
		// 0.25 mm, so each band is 4 mm wide, narrow enough for satin everywhere, but the T is not
		// one column (three ends). One fill at one angle would run along one of the two arms.
		const png = await shapePng(
			'<path d="M20 40 H380 M200 40 V300" fill="none" stroke="#0064c8" stroke-width="16"/>',
			400,
			320,
		);
		const [block] = segmentsByBlock(await sew(png, 90, 1));
		const box = boxOf(block);
		const middle = (box.minX + box.maxX) / 2;
		const top = box.minY;
		const at = (s: Segment) => ({ x: (s.ax + s.bx) / 2, y: (s.ay + s.by) / 2 });
		// Well away from where the arms meet (the bar's lower edge is 4 mm down, the stem's sides
		// 2 mm either side of the middle).
		const stem = block.filter((s) => acrossBand(s) && at(s).y > top + 20);
		const bar = block.filter(
			(s) => acrossBand(s) && at(s).y < top + 4 && Math.abs(at(s).x - middle) > 15,
		);
		// About 40 mm of stem and 60 mm of bar, a satin stitch every 0.4 mm or closer.
		expect(stem.length).toBeGreaterThan(80);
		expect(bar.length).toBeGreaterThan(120);
		expect(shareAlong(stem, 1, 0)).toBeGreaterThanOrEqual(0.9);
		expect(shareAlong(bar, 0, 1)).toBeGreaterThanOrEqual(0.9);
	});
});
