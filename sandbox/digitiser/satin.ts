import { hypot, PI } from './math';
import { principalAxis, type RegionMap } from './regions';
import { frameAt, lengthenSpans, scanRegion, toPixel, type ScanFrame, type Span } from './scan';
import { pullCompensationMm, sewSections, type Density, type RegionSewing } from './sewing';

/** Satin column: a light zig-zag underlay, then dense stitches from edge to edge across the shape. */
export function sewSatin(sewing: RegionSewing, density: Density): void {
	const { needle, map, regionId } = sewing;
	const frame = frameAt(acrossAngle(map, regionId));
	const region = map.regions[regionId];
	if (density.underlay && region.widthPx * needle.pixelMm >= 1.2) {
		const rows = scanRegion(map, regionId, frame, needle.px(1), needle.px(0.3));
		sewSections(sewing, frame, rows, (span) => sewZigZag(sewing, frame, span));
	}
	const spacing = needle.px(density.satinSpacingMm);
	const rows = lengthenSpans(
		scanRegion(map, regionId, frame, spacing, 0),
		needle.px(pullCompensationMm),
	);
	sewSections(sewing, frame, rows, (span) => {
		sewZigZag(sewing, frame, span);
		sewing.cover(frame, span, spacing / 2);
	});
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

/** Satin runs across a column: perpendicular to the region's long axis. */
function acrossAngle(map: RegionMap, regionId: number): number {
	return principalAxis(map, regionId).angle + PI / 2;
}
