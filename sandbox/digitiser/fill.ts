import { traceContours, walkLoop, type Loop } from './contour';
import { ceil, floor, hypot, PI } from './math';
import { principalAxis } from './regions';
import {
	dropSlivers,
	frameAt,
	lengthenSpans,
	scanRegion,
	toPixel,
	type ScanFrame,
	type Span,
} from './scan';
import { pullCompensationMm, sewSections, type Density, type RegionSewing } from './sewing';

/** Tatami needle holes move by these fractions of a stitch from one row to the next. */
const staggers = [0, 0.5, 0.25, 0.75];
/** Fill angles tried per region (the underlay runs across the chosen one). */
const fillAngles = [0, PI / 4, PI / 2, (3 * PI) / 4];
/** Row spacing of the quick scan that compares fill angles, mm. */
const angleProbeSpacingMm = 1;
/** Underlay stays this far inside the edge, so it never peeks out from under the top stitching. */
const underlayInsetMm = 0.5;
/** Fill rows shorter than this are slivers along an edge, covered by the rows beside them. */
const sliverMm = 0.5;
/** Stitch length of the edge-run underlay. */
const edgeRunStitchMm = 2;

/** Tatami fill: edge-run and cross-hatch underlay, then staggered rows over the whole shape. */
export function sewFill(sewing: RegionSewing, density: Density): void {
	const { needle, map, regionId } = sewing;
	const fillAngle = bestFillAngle(sewing);
	if (density.underlay) {
		sewLoops(sewing, traceContours(map, regionId, needle.px(underlayInsetMm)), edgeRunStitchMm);
		const frame = frameAt(fillAngle + PI / 2);
		const rows = scanRegion(map, regionId, frame, needle.px(2), needle.px(underlayInsetMm));
		sewSections(sewing, frame, rows, (span) => sewRow(sewing, frame, span, needle.px(3), null));
	}
	const frame = frameAt(fillAngle);
	const spacing = needle.px(density.fillSpacingMm);
	const rows = lengthenSpans(
		dropSlivers(scanRegion(map, regionId, frame, spacing, 0), needle.px(sliverMm)),
		needle.px(pullCompensationMm),
	);
	const stitchPx = needle.px(density.fillStitchMm);
	sewSections(sewing, frame, rows, (span) => {
		sewRow(sewing, frame, span, stitchPx, staggers);
		sewing.cover(frame, span, spacing / 2);
	});
}

/** Shapes at least this elongated get their own long axis as the preferred fill direction. */
const elongatedShape = 1.3;

/**
 * The fill direction for this shape: rows along its long axis when it has one (long rows, few
 * turns, the fabric's pull spread along its length), else the fixed angles; whichever cuts the
 * shape into the fewest separate sections wins, so the needle jumps and trims least, and ties
 * keep the shape's own axis, then horizontal first.
 */
function bestFillAngle(sewing: RegionSewing): number {
	const spacing = sewing.needle.px(angleProbeSpacingMm);
	const axis = principalAxis(sewing.map, sewing.regionId);
	const candidates = axis.elongation >= elongatedShape ? [axis.angle, ...fillAngles] : fillAngles;
	let best = candidates[0];
	let fewest = Number.MAX_SAFE_INTEGER;
	for (const angle of candidates) {
		const rows = dropSlivers(
			scanRegion(sewing.map, sewing.regionId, frameAt(angle), spacing, 0),
			sewing.needle.px(sliverMm),
		);
		let starts = 0;
		for (let r = 0; r < rows.length; r++) {
			const previous = r > 0 && rows[r - 1][0].row === rows[r][0].row - 1 ? rows[r - 1] : [];
			for (const span of rows[r]) {
				if (!previous.some((above) => above.u0 < span.u1 && above.u1 > span.u0)) starts++;
			}
		}
		if (starts < fewest) {
			fewest = starts;
			best = angle;
		}
	}
	return best;
}

/** Running stitch around every outline (edge-run underlay, hairlines), nearest outline first. */
export function sewLoops(sewing: RegionSewing, loops: Loop[], stitchMm: number): void {
	const { needle } = sewing;
	const stepPx = needle.px(stitchMm);
	const pending = loops.filter((loop) => loop.length * 0.7 >= stepPx);
	while (pending.length) {
		const [nx, ny] = needle.position;
		let best = { loop: 0, index: 0, distance: 1e300 };
		pending.forEach((loop, l) => {
			loop.forEach(([x, y], index) => {
				const distance = hypot(x - nx, y - ny);
				if (distance < best.distance) best = { loop: l, index, distance };
			});
		});
		const [loop] = pending.splice(best.loop, 1);
		const walk = walkLoop(loop, best.index, stepPx);
		sewing.travelTo(walk[0][0], walk[0][1]);
		for (let k = 1; k < walk.length; k++) needle.stitchTo(walk[k][0], walk[k][1]);
	}
}

/**
 * One tatami row: joins it from the nearer end, then pierces at a grid that is shifted
 * row by row (`staggers`), so holes never line up into a visible furrow.
 */
function sewRow(
	sewing: RegionSewing,
	frame: ScanFrame,
	span: Span,
	stitchPx: number,
	stagger: number[] | null,
): void {
	const { needle } = sewing;
	const [nx, ny] = needle.position;
	const [ax, ay] = toPixel(frame, span.u0, span.v);
	const [bx, by] = toPixel(frame, span.u1, span.v);
	const forward = hypot(ax - nx, ay - ny) <= hypot(bx - nx, by - ny);
	const uStart = forward ? span.u0 : span.u1;
	const uEnd = forward ? span.u1 : span.u0;
	sewing.joinTo(...toPixel(frame, uStart, span.v));
	const shift = stagger
		? stagger[((span.row % stagger.length) + stagger.length) % stagger.length] * stitchPx
		: 0;
	const minGap = stitchPx * 0.3;
	const sign = forward ? 1 : -1;
	let k = forward ? floor((uStart - shift) / stitchPx) + 1 : ceil((uStart - shift) / stitchPx) - 1;
	let last = uStart;
	for (;;) {
		const u = shift + k * stitchPx;
		if ((u - uEnd) * sign >= -minGap) break;
		if ((u - last) * sign >= minGap) {
			needle.stitchTo(...toPixel(frame, u, span.v));
			last = u;
		}
		k += sign;
	}
	needle.stitchTo(...toPixel(frame, uEnd, span.v));
}
