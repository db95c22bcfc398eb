import { traceContours, walkLoop, type Loop } from './contour';
import { ceil, floor, hypot, max, min, PI, round } from './math';
import { principalAxis } from './regions';
import {
	dropSlivers,
	frameAt,
	lengthenSpans,
	nextSection,
	scanRegion,
	toPixel,
	type ScanFrame,
	type Span,
} from './scan';
import type { OpenFill } from './openfill';
import { staysWithin, underlapOf, type Underlap } from './underlap';
import { halfThreadMm } from './satin';
import { pullCompensationMm, type Density, type RegionSewing } from './sewing';

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
/**
 * How far top fill runs under the neighbours sewn after it (professionals overlap 0.3-1 mm), so
 * the fabric's pull opens no gap between them.
 */
export const underlapMm = 0.6;
/** Row spacing of the cross-hatch underlay, mm: professionals lay it about 1-1.5 mm apart. */
const underlaySpacingMm = 1.5;
/** Stitch length of the edge-run underlay. */
const edgeRunStitchMm = 2;

/** Tatami fill: edge-run and cross-hatch underlay, then staggered rows over the whole shape. */
export function sewFill(sewing: RegionSewing, density: Density): void {
	const { needle, map, regionId } = sewing;
	const fillAngle = bestFillAngle(sewing);
	if (density.underlay) {
		// Hidden under the top stitching, the edge run needs no hole at each bend of the outline.
		sewLoops(
			sewing,
			traceContours(map, regionId, needle.px(underlayInsetMm)),
			edgeRunStitchMm,
			Infinity,
		);
		const frame = frameAt(fillAngle + PI / 2);
		const rows = scanRegion(
			map,
			regionId,
			frame,
			needle.px(underlaySpacingMm),
			needle.px(underlayInsetMm),
		);
		sewTatami(sewing, frame, rows, needle.px(3), null, null);
	}
	const frame = frameAt(fillAngle);
	const spacing = needle.px(density.fillSpacingMm);
	const within = underlapOf(map, regionId, sewing.covered, needle.px(underlapMm));
	// Row ends half a thread inside the edge, then out by the compensation, as satin's holes.
	const rows = lengthenSpans(
		dropSlivers(scanRegion(map, regionId, frame, spacing, 0, within), needle.px(sliverMm)),
		needle.px(pullCompensationMm - halfThreadMm),
	);
	const stitchPx = needle.px(density.fillStitchMm);
	sewTatami(sewing, frame, rows, stitchPx, staggers, within, (span) =>
		coverOwn(sewing, frame, span, spacing / 2),
	);
}

/**
 * The open rows of an open fill (see `findOpenFills`), over the area its lower thread has already
 * filled: where the artwork's stripes are, with no underlay (it would show between them).
 */
export function sewOpenFill(sewing: RegionSewing, open: OpenFill, density: Density): void {
	const { needle, map, regionId } = sewing;
	const frame = frameAt(open.angle);
	const within = underlapOf(map, regionId, sewing.covered, needle.px(underlapMm));
	// A stripe wider than a thread takes rows side by side, their outer edges on the stripe's, each
	// overlapping the next by a quarter of a thread at least (threads that only touch leave a hairline).
	const threadPx = needle.px(2 * halfThreadMm);
	const perStripe = 1 + ceil(max(0, open.stripePx - 1.1 * threadPx) / (0.75 * threadPx));
	const step = perStripe > 1 ? (open.stripePx - threadPx) / (perStripe - 1) : 0;
	const byRow = new Map<number, Span[]>();
	for (let j = 0; j < perStripe; j++) {
		const phase = open.phase + ((j - (perStripe - 1) / 2) * step) / open.spacingPx;
		const stripes = scanRegion(map, regionId, frame, open.spacingPx, 0, within, phase);
		for (const row of stripes) {
			for (const span of row) span.row = span.row * perStripe + j;
			byRow.set(row[0].row, row);
		}
	}
	const rows = lengthenSpans(
		dropSlivers(
			[...byRow.keys()].sort((a, b) => a - b).map((row) => byRow.get(row)!),
			needle.px(sliverMm),
		),
		needle.px(pullCompensationMm - halfThreadMm),
	);
	const stitchPx = needle.px(density.fillStitchMm);
	// Rows apart show every turn: each row is sewn from end to end, and the turn runs along the edge.
	sewTatami(sewing, frame, rows, stitchPx, staggers, within, undefined, true);
}

/**
 * Marks the region's own pixels under a top row as covered (travel may no longer hide there); its
 * run under a later neighbour stays open to travel, which that neighbour's stitching will hide.
 */
function coverOwn(sewing: RegionSewing, frame: ScanFrame, span: Span, halfWidth: number): void {
	const { map, regionId, covered } = sewing;
	const { width, height, ids } = map;
	const across = ceil((2 * halfWidth) / 0.5);
	for (let u = span.u0; u <= span.u1; u += 0.5) {
		for (let k = 0; k <= across; k++) {
			const [px, py] = toPixel(frame, u, span.v - halfWidth + k * 0.5);
			const x = floor(px);
			const y = floor(py);
			const i = y * width + x;
			if (x >= 0 && y >= 0 && x < width && y < height && ids[i] === regionId) covered[i] = 1;
		}
	}
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

/**
 * Where an outline bends away from a running stitch by more than this, the stitch ends at the bend (a
 * pixel's jitter, 1.5 px, is never a bend).
 */
const runBendMm = 0.25;

/**
 * Running stitch around every outline (edge-run underlay, hairlines), a hole at every bend over
 * `bendMm` (see `walkLoop`). The next outline is the nearest, unless no straight hidden run reaches
 * it: then the one a hidden route reaches by the shortest way (see `RegionSewing.nextSection`). A
 * shape has an outline round each hole (a lattice hundreds), and the nearest often lies across bare
 * fabric, in the next arm or coil.
 */
export function sewLoops(
	sewing: RegionSewing,
	loops: Loop[],
	stitchMm: number,
	bendMm = runBendMm,
): void {
	const { needle } = sewing;
	const stepPx = needle.px(stitchMm);
	const pending = loops.filter((loop) => loop.length * 0.7 >= stepPx);
	// A lattice is one region with hundreds of holes: each loop's box lets the search for the
	// nearest point skip the loops that cannot hold it, instead of visiting every point each time.
	const boxes = pending.map(boxOf);
	while (pending.length) {
		const [nx, ny] = needle.position;
		let best = { loop: 0, index: 0, distance: Infinity };
		for (let l = 0; l < pending.length; l++) {
			const [x0, y0, x1, y1] = boxes[l];
			const bx = max(x0 - nx, 0, nx - x1);
			const by = max(y0 - ny, 0, ny - y1);
			if (bx * bx + by * by >= best.distance) continue;
			const loop = pending[l];
			for (let index = 0; index < loop.length; index++) {
				const dx = loop[index][0] - nx;
				const dy = loop[index][1] - ny;
				const distance = dx * dx + dy * dy;
				if (distance < best.distance) best = { loop: l, index, distance };
			}
		}
		if (sewing.needsRoute(pending[best.loop][best.index])) {
			const starts = pending.flatMap((loop, l) => loop.map((_, index) => ({ loop: l, index })));
			const reached = sewing.nearestByRoute(starts.map(({ loop, index }) => pending[loop][index]));
			if (reached >= 0) best = { ...starts[reached], distance: 0 };
		}
		const [loop] = pending.splice(best.loop, 1);
		boxes.splice(best.loop, 1);
		const walk = walkLoop(loop, best.index, stepPx, max(needle.px(bendMm), 1.5));
		sewing.travelTo(walk[0][0], walk[0][1]);
		for (let k = 1; k < walk.length; k++) needle.stitchTo(walk[k][0], walk[k][1]);
	}
}

/** A loop's bounding box: min x, min y, max x, max y. */
function boxOf(loop: Loop): [number, number, number, number] {
	let [x0, y0] = loop[0];
	let [x1, y1] = loop[0];
	for (const [x, y] of loop) {
		x0 = min(x0, x);
		y0 = min(y0, y);
		x1 = max(x1, x);
		y1 = max(y1, y);
	}
	return [x0, y0, x1, y1];
}

/**
 * Sews tatami rows section by section. Within a section the rows go back and forth, and where one
 * row turns into the next only the outer of the two row ends is pierced (the one reaching further
 * along the row direction): the stitch from the last hole of one row goes straight to that end and
 * on into the next row. So every edge is still reached (the outer end covers the inner one), and
 * no short join stitch runs along the edge between two rows. A row end at the shape's leftmost or
 * rightmost reach is pierced however near the needle (see `outermostAcross`). Open rows
 * (`everyEnd`) pierce both ends of every row: with the lower colour between them, a stitch across a
 * turn would show. They also go to the nearest section as it is: their rows lie on the stripes the
 * artwork shows, and a run chosen among them by hidden routes (`RegionSewing.nextSection`) took
 * goldfish's colour agreement from 0.883 to 0.874.
 */
function sewTatami(
	sewing: RegionSewing,
	frame: ScanFrame,
	rows: Span[][],
	stitchPx: number,
	stagger: number[] | null,
	within: Underlap | null,
	afterRow: (span: Span) => void = () => {},
	everyEnd = false,
): void {
	const { needle } = sewing;
	const outermost = outermostAcross(frame, rows);
	for (;;) {
		const section = everyEnd
			? nextSection(rows, frame, needle.position)
			: sewing.nextSection(rows, frame);
		if (!section) return;
		const [nx, ny] = needle.position;
		const [first] = section;
		const [x0, y0] = toPixel(frame, first.u0, first.v);
		const [x1, y1] = toPixel(frame, first.u1, first.v);
		let forward = hypot(x0 - nx, y0 - ny) <= hypot(x1 - nx, y1 - ny);
		sewing.travelTo(...toPixel(frame, forward ? first.u0 : first.u1, first.v));
		section.forEach((span, k) => {
			const start = forward ? span.u0 : span.u1;
			const end = forward ? span.u1 : span.u0;
			const sign = forward ? 1 : -1;
			const holes = rowHoles(span, start, end, sign, stitchPx, stagger);
			if (k > 0 && everyEnd) turnTo(sewing, toPixel(frame, start, span.v), stitchPx, within);
			else if (k > 0) {
				// The turn: the previous row ended short of its end; pierce the outer of the two ends.
				const previous = section[k - 1];
				const previousEnd = forward ? previous.u0 : previous.u1;
				const outer =
					(previousEnd - start) * sign <= 0 ? [previousEnd, previous.v] : [start, span.v];
				reachEnd(sewing, toPixel(frame, outer[0], outer[1]), stitchPx, within, outermost);
			}
			// After a turn the first stitch runs slanted from one row into the next: it must stay inside.
			holes.forEach((u, h) => {
				if (h === 0) turnTo(sewing, toPixel(frame, u, span.v), stitchPx, within);
				else needle.stitchTo(...toPixel(frame, u, span.v));
			});
			if (everyEnd) turnTo(sewing, toPixel(frame, end, span.v), stitchPx, within);
			else if (k === section.length - 1 || holes.length === 0)
				reachEnd(sewing, toPixel(frame, end, span.v), stitchPx, within, outermost);
			afterRow(span);
			forward = !forward;
		});
	}
}

/**
 * A row end nearer the needle than this is not pierced: where rows are short (a point, a narrow
 * neck) the needle already sits at the end of the row before, a hair from this one, and a stitch
 * to it would be a stub; the rows beside it cover the edge.
 */
const shortestRowEndStitchMm = 1;

/**
 * Pierces a row end (see `turnTo`) unless it is a stub's length from the needle. A row end at the
 * shape's leftmost or rightmost reach (`outermost`, see `outermostAcross`) is pierced however near,
 * unless the needle already reaches as far.
 */
function reachEnd(
	sewing: RegionSewing,
	[x, y]: [number, number],
	stitchPx: number,
	within: Underlap | null,
	outermost?: [number, number],
): void {
	const { needle } = sewing;
	const [nx, ny] = needle.position;
	const widens = outermost && ((x <= outermost[0] && nx > x) || (x >= outermost[1] && nx < x));
	if (!widens && hypot(x - nx, y - ny) < needle.px(shortestRowEndStitchMm)) return;
	turnTo(sewing, [x, y], stitchPx, within);
}

/**
 * The smallest and largest x of a fill's row ends, working pixels. The design's width is its needle
 * extent across (see `fitToWidth`): a stub left out at a tip there made the whole design larger
 * (hurricane_lantern by 0.8%), or not, depending on which way the needle came to the tip. Up and
 * down nothing is fitted, and a stub left out there moves only itself.
 */
function outermostAcross(frame: ScanFrame, rows: Span[][]): [number, number] {
	let left = Infinity;
	let right = -Infinity;
	for (const row of rows) {
		for (const span of row) {
			for (const u of [span.u0, span.u1]) {
				const [x] = toPixel(frame, u, span.v);
				left = min(left, x);
				right = max(right, x);
			}
		}
	}
	return [left, right];
}

/** How far a turn between rows may graze past the region's edge: under a thread's width. */
const turnSlackMm = 0.3;

/**
 * Stitches to a point of the fill, in stitches no longer than the fill's own when the way there
 * stays inside the region, or `within` where it may run under its neighbours (a turn grazing a
 * slanted edge may stray a little), else travels.
 */
function turnTo(
	sewing: RegionSewing,
	[x, y]: [number, number],
	stitchPx: number,
	within: Underlap | null,
): void {
	const { needle } = sewing;
	const [nx, ny] = needle.position;
	const slack = max(1, round(needle.px(turnSlackMm)));
	const inside = within
		? staysWithin(within, nx, ny, x, y, slack)
		: sewing.inside(nx, ny, x, y, slack);
	if (inside) needle.stitchTo(x, y, stitchPx * needle.pixelMm);
	else sewing.joinTo(x, y);
}

/**
 * The needle holes inside one row, from `start` towards `end` (`sign` 1 or -1): on a grid shifted
 * row by row (`stagger`), so holes never line up into a visible furrow, and no closer to either
 * end than a third of a stitch, so no stitch in the row is short.
 */
function rowHoles(
	span: Span,
	start: number,
	end: number,
	sign: number,
	stitchPx: number,
	stagger: number[] | null,
): number[] {
	const shift = stagger
		? stagger[((span.row % stagger.length) + stagger.length) % stagger.length] * stitchPx
		: 0;
	const minGap = stitchPx * 0.3;
	const holes: number[] = [];
	let k = sign > 0 ? floor((start - shift) / stitchPx) + 1 : ceil((start - shift) / stitchPx) - 1;
	let last = start;
	for (;;) {
		const u = shift + k * stitchPx;
		if ((u - end) * sign >= -minGap) break;
		if ((u - last) * sign >= minGap) {
			holes.push(u);
			last = u;
		}
		k += sign;
	}
	return holes;
}
