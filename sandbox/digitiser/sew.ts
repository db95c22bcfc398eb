import type { Needle } from './needle';
import type { RegionMap } from './regions';
import { frameAt, lineInside, nextSection, scanRegion, toPixel, type ScanFrame, type Span } from './scan';

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
/** Extra length at each end of a top stitch row: thread pulls the fabric in. */
const pullCompensationMm = 0;
/** Tatami needle holes move by these fractions of a stitch from one row to the next. */
const staggers = [0, 0.5, 0.25, 0.75];
/** Fill angle; the underlay runs across it. */
const fillAngle = 0;

/** Sews one region: underlay first, then its top stitching. */
export function sewRegion(needle: Needle, map: RegionMap, regionId: number, density: Density): void {
	const region = map.regions[regionId];
	if (region.widthPx * needle.pixelMm < satinMaxWidthMm) sewSatin(needle, map, regionId, density);
	else sewFill(needle, map, regionId, density);
}

function sewFill(needle: Needle, map: RegionMap, regionId: number, density: Density): void {
	if (density.underlay) {
		const frame = frameAt(fillAngle + Math.PI / 2);
		const rows = scanRegion(map, regionId, frame, needle.px(2), needle.px(0.5));
		sewSections(needle, map, regionId, frame, rows, (span) => sewRow(needle, frame, span, needle.px(3), null));
	}
	const frame = frameAt(fillAngle);
	const rows = scanRegion(map, regionId, frame, needle.px(density.fillSpacingMm), 0);
	extendSpans(rows, needle.px(pullCompensationMm));
	const stitchPx = needle.px(density.fillStitchMm);
	sewSections(needle, map, regionId, frame, rows, (span) => sewRow(needle, frame, span, stitchPx, staggers));
}

function sewSatin(needle: Needle, map: RegionMap, regionId: number, density: Density): void {
	const frame = frameAt(acrossAngle(map, regionId));
	const region = map.regions[regionId];
	if (density.underlay && region.widthPx * needle.pixelMm >= 1.2) {
		const rows = scanRegion(map, regionId, frame, needle.px(1), needle.px(0.3));
		sewSections(needle, map, regionId, frame, rows, (span) => sewZigZag(needle, frame, span));
	}
	const rows = scanRegion(map, regionId, frame, needle.px(density.satinSpacingMm), 0);
	extendSpans(rows, needle.px(pullCompensationMm));
	sewSections(needle, map, regionId, frame, rows, (span) => sewZigZag(needle, frame, span));
}

function extendSpans(rows: Span[][], by: number): void {
	for (const spans of rows) {
		for (const span of spans) {
			span.u0 -= by;
			span.u1 += by;
		}
	}
}

type SewSpan = (span: Span) => void;

/** Sews every section of the scan, travelling between sections. */
function sewSections(needle: Needle, map: RegionMap, regionId: number, frame: ScanFrame, rows: Span[][], sew: SewSpan): void {
	for (;;) {
		const section = nextSection(rows, frame, needle.position);
		if (!section) return;
		const [first] = section;
		const [x0, y0] = toPixel(frame, first.u0, first.v);
		const [x1, y1] = toPixel(frame, first.u1, first.v);
		const [nx, ny] = needle.position;
		const fromStart = Math.hypot(x0 - nx, y0 - ny) <= Math.hypot(x1 - nx, y1 - ny);
		const [sx, sy] = fromStart ? [x0, y0] : [x1, y1];
		needle.travelTo(sx, sy, isHidden(needle, map, regionId, sx, sy));
		for (const span of section) sew(span);
	}
}

function isHidden(needle: Needle, map: RegionMap, regionId: number, x: number, y: number): boolean {
	const [nx, ny] = needle.position;
	if (Math.hypot(x - nx, y - ny) > needle.px(20)) return false;
	return lineInside(map, regionId, nx, ny, x, y);
}

/**
 * One tatami row: joins it from the nearer end, then pierces at a grid that is shifted
 * row by row (`staggers`), so holes never line up into a visible furrow.
 */
function sewRow(needle: Needle, frame: ScanFrame, span: Span, stitchPx: number, stagger: number[] | null): void {
	const [nx, ny] = needle.position;
	const [ax, ay] = toPixel(frame, span.u0, span.v);
	const [bx, by] = toPixel(frame, span.u1, span.v);
	const forward = Math.hypot(ax - nx, ay - ny) <= Math.hypot(bx - nx, by - ny);
	const uStart = forward ? span.u0 : span.u1;
	const uEnd = forward ? span.u1 : span.u0;
	needle.stitchTo(...toPixel(frame, uStart, span.v));
	const shift = stagger ? stagger[((span.row % stagger.length) + stagger.length) % stagger.length] * stitchPx : 0;
	const minGap = stitchPx * 0.3;
	const sign = forward ? 1 : -1;
	let k = forward ? Math.floor((uStart - shift) / stitchPx) + 1 : Math.ceil((uStart - shift) / stitchPx) - 1;
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
function sewZigZag(needle: Needle, frame: ScanFrame, span: Span): void {
	const [nx, ny] = needle.position;
	const [ax, ay] = toPixel(frame, span.u0, span.v);
	const [bx, by] = toPixel(frame, span.u1, span.v);
	if (Math.hypot(ax - nx, ay - ny) >= Math.hypot(bx - nx, by - ny)) needle.stitchTo(ax, ay);
	else needle.stitchTo(bx, by);
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
	const longAxis = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
	return longAxis + Math.PI / 2;
}
