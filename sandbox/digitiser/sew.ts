import { traceContours, walkLoop, type Loop } from './contour';
import type { Needle } from './needle';
import type { RegionMap } from './regions';
import { frameAt, nextSection, scanRegion, toPixel, type ScanFrame, type Span } from './scan';
import { atan2, ceil, floor, hypot, max, PI, round } from './math';

/** How densely areas are covered; relaxed step by step when a stitch cap must be met. */
export interface Density {
	/** Distance between tatami rows, mm. */
	fillSpacingMm: number;
	/** Longest tatami stitch, mm. */
	fillStitchMm: number;
	/** Distance between satin zig and zag, mm (each side is pierced every two of these). */
	satinSpacingMm: number;
	underlay: boolean;
}

export const standardDensity: Density = { fillSpacingMm: 0.4, fillStitchMm: 3.5, satinSpacingMm: 0.2, underlay: true };

/** Shapes narrower than this everywhere are sewn as satin columns instead of tatami fill. */
export const satinMaxWidthMm = 2;
/** Tatami needle holes move by these fractions of a stitch from one row to the next. */
const staggers = [0, 0.5, 0.25, 0.75];
/** Fill angles tried per region (the underlay runs across the chosen one). */
const fillAngles = [0, PI / 4, PI / 2, (3 * PI) / 4];
/** Row spacing of the quick scan that compares fill angles, mm. */
const angleProbeSpacingMm = 1;
/** Longest travel run worth hiding under the fill; further away a jump and trim is cleaner. */
const maxHiddenTravelMm = 20;
/** Underlay stays this far inside the edge, so it never peeks out from under the top stitching. */
const underlayInsetMm = 0.5;
/** Stitch length of the edge-run underlay. */
const edgeRunStitchMm = 2;
/** How far a join between rows may graze past the region's edge: under a thread's width. */
const joinSlackMm = 0.3;

/**
 * What sewing one region needs: the needle, the region, and which pixels the top
 * stitching already covers (travel may only hide under top stitching still to come).
 */
export class RegionSewing {
	constructor(
		readonly needle: Needle,
		readonly map: RegionMap,
		readonly regionId: number,
		readonly covered: Uint8Array,
	) {}

	/**
	 * True when the straight line stays in the region, allowing it to stray `slackPx`
	 * outside (a join along a slanted edge grazes the neighbour).
	 */
	inside(ax: number, ay: number, bx: number, by: number, avoidCovered: boolean, slackPx = 1): boolean {
		const { width, height, ids } = this.map;
		const length = hypot(bx - ax, by - ay);
		const steps = max(1, ceil(length / 0.5));
		for (let s = 0; s <= steps; s++) {
			const x = floor(ax + ((bx - ax) * s) / steps);
			const y = floor(ay + ((by - ay) * s) / steps);
			if (x < 0 || y < 0 || x >= width || y >= height) return false;
			const i = y * width + x;
			if (avoidCovered && this.covered[i] && s > 1 && s < steps - 1) return false;
			if (ids[i] !== this.regionId && !this.near(x, y, slackPx)) return false;
		}
		return true;
	}

	private near(x: number, y: number, slackPx: number): boolean {
		const { width, height, ids } = this.map;
		for (let dy = -slackPx; dy <= slackPx; dy++) {
			for (let dx = -slackPx; dx <= slackPx; dx++) {
				const nx = x + dx;
				const ny = y + dy;
				if (nx >= 0 && ny >= 0 && nx < width && ny < height && ids[ny * width + nx] === this.regionId) return true;
			}
		}
		return false;
	}

	/** Stitches to a point when the way there stays inside the region, else jumps (and trims if far). */
	joinTo(x: number, y: number): void {
		const [nx, ny] = this.needle.position;
		const slack = max(1, round(this.needle.px(joinSlackMm)));
		if (this.inside(nx, ny, x, y, false, slack)) this.needle.stitchTo(x, y);
		else this.needle.travelTo(x, y, false);
	}

	/** Moves to the next section: a hidden run under top stitching still to come, else a jump. */
	travelTo(x: number, y: number): void {
		const [nx, ny] = this.needle.position;
		const near = hypot(x - nx, y - ny) <= this.needle.px(maxHiddenTravelMm);
		this.needle.travelTo(x, y, near && this.inside(nx, ny, x, y, true));
	}

	/** Marks the band a top row covers, so later travel does not run over it. */
	cover(frame: ScanFrame, span: Span, halfWidth: number): void {
		const { width, height } = this.map;
		for (let v = span.v - halfWidth; v <= span.v + halfWidth; v += 0.5) {
			for (let u = span.u0; u <= span.u1; u += 0.5) {
				const [px, py] = toPixel(frame, u, v);
				const x = floor(px);
				const y = floor(py);
				if (x >= 0 && y >= 0 && x < width && y < height) this.covered[y * width + x] = 1;
			}
		}
	}
}

/** Sews one region: underlay first, then its top stitching. */
export function sewRegion(sewing: RegionSewing, density: Density): void {
	const region = sewing.map.regions[sewing.regionId];
	if (region.widthPx * sewing.needle.pixelMm < satinMaxWidthMm) sewSatin(sewing, density);
	else sewFill(sewing, density);
}

function sewFill(sewing: RegionSewing, density: Density): void {
	const { needle, map, regionId } = sewing;
	const fillAngle = bestFillAngle(sewing);
	if (density.underlay) {
		sewEdgeRun(sewing, traceContours(map, regionId, needle.px(underlayInsetMm)));
		const frame = frameAt(fillAngle + PI / 2);
		const rows = scanRegion(map, regionId, frame, needle.px(2), needle.px(underlayInsetMm));
		sewSections(sewing, frame, rows, (span) => sewRow(sewing, frame, span, needle.px(3), null));
	}
	const frame = frameAt(fillAngle);
	const spacing = needle.px(density.fillSpacingMm);
	const rows = scanRegion(map, regionId, frame, spacing, 0);
	const stitchPx = needle.px(density.fillStitchMm);
	sewSections(sewing, frame, rows, (span) => {
		sewRow(sewing, frame, span, stitchPx, staggers);
		sewing.cover(frame, span, spacing / 2);
	});
}

function sewSatin(sewing: RegionSewing, density: Density): void {
	const { needle, map, regionId } = sewing;
	const frame = frameAt(acrossAngle(map, regionId));
	const region = map.regions[regionId];
	if (density.underlay && region.widthPx * needle.pixelMm >= 1.2) {
		const rows = scanRegion(map, regionId, frame, needle.px(1), needle.px(0.3));
		sewSections(sewing, frame, rows, (span) => sewZigZag(sewing, frame, span));
	}
	const spacing = needle.px(density.satinSpacingMm);
	const rows = scanRegion(map, regionId, frame, spacing, 0);
	sewSections(sewing, frame, rows, (span) => {
		sewZigZag(sewing, frame, span);
		sewing.cover(frame, span, spacing / 2);
	});
}

/**
 * The fill direction that cuts the shape into the fewest separate sections, so the
 * needle jumps and trims least; ties keep the earlier (horizontal first) angle.
 */
function bestFillAngle(sewing: RegionSewing): number {
	const spacing = sewing.needle.px(angleProbeSpacingMm);
	let best = fillAngles[0];
	let fewest = Number.MAX_SAFE_INTEGER;
	for (const angle of fillAngles) {
		const rows = scanRegion(sewing.map, sewing.regionId, frameAt(angle), spacing, 0);
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

/** Edge-run underlay: running stitch around every outline just inside the shape, nearest outline first. */
function sewEdgeRun(sewing: RegionSewing, loops: Loop[]): void {
	const { needle } = sewing;
	const stepPx = needle.px(edgeRunStitchMm);
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

/** Sews every section of the scan, travelling between sections. */
function sewSections(sewing: RegionSewing, frame: ScanFrame, rows: Span[][], sew: (span: Span) => void): void {
	for (;;) {
		const section = nextSection(rows, frame, sewing.needle.position);
		if (!section) return;
		const [first] = section;
		const [x0, y0] = toPixel(frame, first.u0, first.v);
		const [x1, y1] = toPixel(frame, first.u1, first.v);
		const [nx, ny] = sewing.needle.position;
		const fromStart = hypot(x0 - nx, y0 - ny) <= hypot(x1 - nx, y1 - ny);
		const [sx, sy] = fromStart ? [x0, y0] : [x1, y1];
		sewing.travelTo(sx, sy);
		for (const span of section) sew(span);
	}
}

/**
 * One tatami row: joins it from the nearer end, then pierces at a grid that is shifted
 * row by row (`staggers`), so holes never line up into a visible furrow.
 */
function sewRow(sewing: RegionSewing, frame: ScanFrame, span: Span, stitchPx: number, stagger: number[] | null): void {
	const { needle } = sewing;
	const [nx, ny] = needle.position;
	const [ax, ay] = toPixel(frame, span.u0, span.v);
	const [bx, by] = toPixel(frame, span.u1, span.v);
	const forward = hypot(ax - nx, ay - ny) <= hypot(bx - nx, by - ny);
	const uStart = forward ? span.u0 : span.u1;
	const uEnd = forward ? span.u1 : span.u0;
	sewing.joinTo(...toPixel(frame, uStart, span.v));
	const shift = stagger ? stagger[((span.row % stagger.length) + stagger.length) % stagger.length] * stitchPx : 0;
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

/** One satin pass: a single stitch to the far side of the column, so passes alternate side to side. */
function sewZigZag(sewing: RegionSewing, frame: ScanFrame, span: Span): void {
	const [nx, ny] = sewing.needle.position;
	const [ax, ay] = toPixel(frame, span.u0, span.v);
	const [bx, by] = toPixel(frame, span.u1, span.v);
	const towardsStart = hypot(ax - nx, ay - ny) >= hypot(bx - nx, by - ny);
	const [tx, ty] = towardsStart ? [ax, ay] : [bx, by];
	sewing.joinTo(tx, ty);
}

/** Satin runs across a column: perpendicular to the region's long axis (principal component). */
function acrossAngle(map: RegionMap, regionId: number): number {
	const region = map.regions[regionId];
	let n = 0;
	let sx = 0;
	let sy = 0;
	let sxx = 0;
	let syy = 0;
	let sxy = 0;
	for (let y = region.minY; y <= region.maxY; y++) {
		for (let x = region.minX; x <= region.maxX; x++) {
			if (map.ids[y * map.width + x] !== regionId) continue;
			n++;
			sx += x;
			sy += y;
			sxx += x * x;
			syy += y * y;
			sxy += x * y;
		}
	}
	const mx = sx / n;
	const my = sy / n;
	const cxx = sxx / n - mx * mx;
	const cyy = syy / n - my * my;
	const cxy = sxy / n - mx * my;
	const longAxis = 0.5 * atan2(2 * cxy, cxx - cyy);
	return longAxis + PI / 2;
}
