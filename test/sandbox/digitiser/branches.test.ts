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

	it('sews the looped petals of a flower outline as satin columns, though its forks take half of it', async () => {
		// Five rings of petals (38 px in radius, 55 px round the middle) that overlap, on a stem: one band
		// 18 px wide with ten forks. 198.6 px across (the outer petals' middles 52.3 px either side of x
		// 200, plus a radius and half the band), so at 34 mm a pixel is 0.171 mm and the band 3.1 mm. Its
		// branches are half of it and the forks, filled, the other half; kept whole, it was one fill of
		// rows at one angle.
		const petals = [0, 1, 2, 3, 4].map((k) => {
			const angle = (2 * Math.PI * k) / 5 - Math.PI / 2;
			return [200 + 55 * Math.cos(angle), 160 + 55 * Math.sin(angle)];
		});
		const png = await shapePng(
			`<g fill="none" stroke="#e6c800" stroke-width="18">` +
				petals.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="38"/>`).join('') +
				'<path d="M200 215 V470"/></g>',
			400,
			480,
		);
		const [block] = segmentsByBlock(await sew(png, 34, 1));
		// The design's box is centred on the needle's origin: the middle of the petals' span across
		// (x 200) and of the flower's height (y 58 to 470).
		const mm = 34 / 198.6;
		const centres = petals.map(([x, y]) => [(x - 200) * mm, (y - 264) * mm]);
		// Satin stitches (3.1 mm, less half a thread each side, plus the compensation) on a petal's ring.
		const onRings = block.filter((s) => {
			if (s.length < 2.8 || s.length > 3.3) return false;
			const mx = (s.ax + s.bx) / 2;
			const my = (s.ay + s.by) / 2;
			return centres.some(([x, y]) => Math.abs(Math.hypot(mx - x, my - y) - 38 * mm) <= 1);
		});
		// Each crosses its ring, pointing at the ring's centre, where the rings are not overlapping.
		const radial = onRings.filter((s) => {
			const mx = (s.ax + s.bx) / 2;
			const my = (s.ay + s.by) / 2;
			const [x, y] = centres.reduce((a, b) =>
				Math.hypot(mx - a[0], my - a[1]) <= Math.hypot(mx - b[0], my - b[1]) ? a : b,
			);
			return angleTo(s, mx - x, my - y) <= 15;
		});
		// One fill: 182 such stitches, 37% of them radial; as columns 386, 58%.
		expect(onRings.length).toBeGreaterThan(250);
		expect(radial.length / onRings.length).toBeGreaterThanOrEqual(0.5);
	});
});
