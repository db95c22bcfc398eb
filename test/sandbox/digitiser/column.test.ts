import { angleTo, boxOf, segmentsByBlock, sew, shapePng } from './support/shapes';

describe('satin columns that follow the shape', () => {
	it('sews a 5 mm curved band as satin whose stitches turn with it', async () => {
		// A half ring 150 px in radius, 20 px wide, ends cut square at y = 200: 320 px wide, so
		// at 80 mm a pixel is 0.25 mm and the band 5 mm.
		const png = await shapePng(
			'<path d="M50 200 A150 150 0 0 1 350 200" fill="none" stroke="#0064c8" stroke-width="20"/>',
			400,
			260,
		);
		const [band] = segmentsByBlock(await sew(png, 80, 1));
		const box = boxOf(band);
		// The circle's centre: the middle of the band's box across, its cut ends' line down.
		const cx = (box.minX + box.maxX) / 2;
		const cy = box.maxY;
		// Top satin only: the zigzag underlay crosses 0.4 mm inside the edges, slanted, under 4.7 mm.
		const satin = band.filter((s) => s.length >= 4.7 && s.length <= 6);
		expect(satin.length).toBeGreaterThan(400);
		const across = satin.filter((s) => {
			const mx = (s.ax + s.bx) / 2;
			const my = (s.ay + s.by) / 2;
			return angleTo(s, mx - cx, my - cy) <= 15;
		});
		// Nearly every satin stitch points at the centre: it crosses the band wherever it turns.
		expect(across.length / satin.length).toBeGreaterThanOrEqual(0.9);
		// And the stitches pointing at the centre lie all along the half ring, so they turn with it
		// through as many degrees: where they lie around the centre (0 at one cut end, 180 at the
		// other; a stitch's direction alone is the same at both ends, 0 and 180 degrees apart).
		const around = across.map(
			(s) => (Math.atan2(cy - (s.ay + s.by) / 2, (s.ax + s.bx) / 2 - cx) * 180) / Math.PI,
		);
		expect(Math.max(...around) - Math.min(...around)).toBeGreaterThan(165);
	});

	it('keeps three concentric rings apart, each a satin ring', async () => {
		// Rings 100, 76 and 52 px in radius, 12 px wide: 212 px across, so at 53 mm a pixel is
		// 0.25 mm, each ring 3 mm wide and the gaps between them 3 mm.
		const rings = [100, 76, 52]
			.map(
				(r) =>
					`<circle cx="110" cy="110" r="${r}" fill="none" stroke="#e60000" stroke-width="12"/>`,
			)
			.join('');
		const [block] = segmentsByBlock(await sew(await shapePng(rings, 220, 220), 53, 1));
		const box = boxOf(block);
		const cx = (box.minX + box.maxX) / 2;
		const cy = (box.minY + box.maxY) / 2;
		const radiusOf = (x: number, y: number) => Math.hypot(x - cx, y - cy);
		const bands = [100, 76, 52].map((r) => [(r - 6) * 0.25, (r + 6) * 0.25]);
		// No stitch runs over a gap or the middle: every needle hole and stitch middle is on a ring.
		const onRing = (radius: number) =>
			bands.some(([inner, outer]) => radius >= inner - 0.6 && radius <= outer + 0.6);
		const offRing = block.filter(
			(s) =>
				!onRing(radiusOf(s.ax, s.ay)) || !onRing(radiusOf((s.ax + s.bx) / 2, (s.ay + s.by) / 2)),
		);
		expect(offRing.map((s) => radiusOf(s.ax, s.ay).toFixed(2))).toEqual([]);
		// Each ring is sewn by satin stitches across it, pointing at the centre all the way round.
		for (const [inner, outer] of bands) {
			const satin = block.filter((s) => {
				const r = radiusOf((s.ax + s.bx) / 2, (s.ay + s.by) / 2);
				return r >= inner && r <= outer && s.length >= 2.5;
			});
			expect(satin.length).toBeGreaterThan(100);
			const radial = satin.filter(
				(s) => angleTo(s, (s.ax + s.bx) / 2 - cx, (s.ay + s.by) / 2 - cy) <= 15,
			);
			expect(radial.length / satin.length).toBeGreaterThanOrEqual(0.9);
		}
	});
});
