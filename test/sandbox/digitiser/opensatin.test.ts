import { boxOf, segmentsByBlock, sew, shapePng, type Segment } from './support/shapes';

/** Drawn at 10 px a millimetre, without smoothing: a render of a design's stitches, as a shop sends one. */
const pxPerMm = 10;
/** A satin ring 4 mm wide round a centre 15 mm in: 75 stitches out, 75 back. */
const outerMm = 12;
const innerMm = 8;
const stitchPairs = 75;
/** The pitch of the holes on the outer rail: about 1 mm, as a light satin's. */
const pitchRad = (2 * Math.PI) / stitchPairs;

/** The ring's stitches as drawn: outer hole, inner hole a half pitch (and a little slant) on, and so on. */
function drawnRing(outer = outerMm, inner = innerMm): string {
	const points: string[] = [];
	const at = (radius: number, angle: number) =>
		`${(15 + radius * Math.cos(angle)) * pxPerMm},${(15 + radius * Math.sin(angle)) * pxPerMm}`;
	for (let k = 0; k <= stitchPairs; k++) {
		points.push(at(outer, k * pitchRad));
		points.push(at(inner, (k + 0.5) * pitchRad + 0.1));
	}
	return `<polyline points="${points.join(' ')}" fill="none" stroke="#0064c8" stroke-width="${
		0.4 * pxPerMm
	}" stroke-linejoin="round"/>`;
}

function ringPng(body: string): Promise<Buffer> {
	return shapePng(`<g shape-rendering="crispEdges">${body}</g>`, 30 * pxPerMm, 30 * pxPerMm);
}

/** Stitches across the ring (satin, not its centre walk or travel). */
const across = (s: Segment) => s.length >= 3.5 && s.length <= 5;

describe('open satin read off the artwork', () => {
	it('sews a drawn open satin ring through its drawn holes, not as a closed column', async () => {
		const [block] = segmentsByBlock(await sew(await ringPng(drawnRing()), 24, 1));
		const stitches = block.filter(across);
		// About one stitch per drawn stitch (150; a few millimetres of the ring, cut off where a slit
		// reads as a fork, are sewn closed). A closed satin has one every 0.2 mm of its middle (314).
		expect(stitches.length).toBeGreaterThanOrEqual(120);
		expect(stitches.length).toBeLessThanOrEqual(170);
		// The holes on the outer rail lie on the drawn ones' beat, every 1/75 of a turn, all in step.
		const box = boxOf(block);
		const cx = (box.minX + box.maxX) / 2;
		const cy = (box.minY + box.maxY) / 2;
		const outer = stitches
			.flatMap((s) => [
				[s.ax, s.ay],
				[s.bx, s.by],
			])
			.filter(([x, y]) => Math.hypot(x - cx, y - cy) > (outerMm + innerMm) / 2);
		const phases = outer.map(([x, y]) => {
			const turns = Math.atan2(y - cy, x - cx) / pitchRad;
			return turns - Math.floor(turns);
		});
		// Off the beat (as an arc on the outer rail) from their common phase.
		const mean = Math.atan2(
			phases.reduce((sum, p) => sum + Math.sin(2 * Math.PI * p), 0),
			phases.reduce((sum, p) => sum + Math.cos(2 * Math.PI * p), 0),
		);
		const offBeatMm = phases
			.map((p) => {
				const d = Math.abs(2 * Math.PI * p - mean) % (2 * Math.PI);
				return (Math.min(d, 2 * Math.PI - d) / (2 * Math.PI)) * pitchRad * outerMm;
			})
			.sort((a, b) => a - b);
		expect(outer.length).toBeGreaterThanOrEqual(110);
		expect(offBeatMm[Math.floor(offBeatMm.length * 0.9)]).toBeLessThanOrEqual(0.15);
	});

	it('sews a drawn open satin ring 6 mm wide through its drawn holes too', async () => {
		// Its wedges of bare fabric stay open on the working grid; closed into their band (comb.ts), it is a
		// column again. Left open, each drawn stitch was traced as a line: no stitch went across.
		const [block] = segmentsByBlock(await sew(await ringPng(drawnRing(13, 7)), 26, 1));
		const stitches = block.filter((s) => s.length >= 5.5 && s.length <= 7.2);
		expect(stitches.length).toBeGreaterThanOrEqual(120);
		expect(stitches.length).toBeLessThanOrEqual(170);
	});

	it('sews the same ring drawn solid as a closed satin', async () => {
		const solid = `<circle cx="${15 * pxPerMm}" cy="${15 * pxPerMm}" r="${10 * pxPerMm}" fill="none"
			stroke="#0064c8" stroke-width="${4 * pxPerMm}"/>`;
		const [block] = segmentsByBlock(await sew(await ringPng(solid), 24, 1));
		expect(block.filter(across).length).toBeGreaterThan(280);
	});
});
