import type { Needle } from './needle';
import { background, type RegionMap } from './regions';
import { hiddenRoute, routeLengths, type TravelGroups } from './travel';
import { runEnds, sectionStart, takeSection, toPixel, type ScanFrame, type Span } from './scan';
import { ceil, floor, hypot, max, round } from './math';

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

/**
 * Fabric pulls stitches in along their length, so a shape comes out narrower than drawn in its
 * stitch direction: top stitching reaches this far past the edge at both ends of every row.
 */
export const pullCompensationMm = 0.15;

export const standardDensity: Density = {
	fillSpacingMm: 0.2,
	fillStitchMm: 3.5,
	satinSpacingMm: 0.2,
	underlay: true,
};

/** Longest travel run worth hiding under the fill; further away a jump and trim is cleaner. */
const maxHiddenTravelMm = 20;
/** Grid cell of the hidden-route search, mm. */
export const routeCellMm = 0.5;
/** Longest hidden route searched, mm (or `maxRouteDetour` times the straight distance, if more). */
export const maxRouteMm = 50;
/**
 * Widest gap of bare fabric between areas of one colour that travel may cross in that colour, mm:
 * about a thread and a half, where the artwork breaks a line for a hair or two shapes nearly touch.
 */
export const bridgeGapMm = 0.6;
/** Travel shorter than this is a jump or a straight run; no route is searched. */
const routeMinMm = 1;
/** Longest hidden route, as a multiple of the straight distance (or `maxRouteMm`, whichever is more). */
const maxRouteDetour = 3;
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
		/** Which places hidden runs of this thread can connect; without it every route is searched. */
		readonly groups?: TravelGroups,
		/** Each region's pixels (`regionPixels`); without it a region's box is scanned for them. */
		readonly pixelsOf?: (regionId: number) => Int32Array,
	) {}

	/**
	 * True when the straight line stays in the region, allowing it to stray `slackPx`
	 * outside (a join along a slanted edge grazes the neighbour).
	 */
	inside(ax: number, ay: number, bx: number, by: number, slackPx = 1): boolean {
		const { width, height, ids } = this.map;
		const length = hypot(bx - ax, by - ay);
		const steps = max(1, ceil(length / 0.5));
		for (let s = 0; s <= steps; s++) {
			const x = floor(ax + ((bx - ax) * s) / steps);
			const y = floor(ay + ((by - ay) * s) / steps);
			if (x < 0 || y < 0 || x >= width || y >= height) return false;
			if (ids[y * width + x] !== this.regionId && !this.near(x, y, slackPx)) return false;
		}
		return true;
	}

	/**
	 * True when a travel run along the line would end up hidden: it crosses only design
	 * areas whose top stitching is still to come (this shape's or any later one's), never
	 * bare fabric or stitching already done. Its first and last half millimetre may graze edges.
	 */
	hiddenPath(ax: number, ay: number, bx: number, by: number): boolean {
		const { width, height, ids, regions } = this.map;
		const length = hypot(bx - ax, by - ay);
		const steps = max(1, ceil(length / 0.5));
		const grace = ceil(this.needle.px(0.5) / 0.5);
		for (let s = grace; s <= steps - grace; s++) {
			const x = floor(ax + ((bx - ax) * s) / steps);
			const y = floor(ay + ((by - ay) * s) / steps);
			if (x < 0 || y < 0 || x >= width || y >= height) return false;
			const i = y * width + x;
			if (this.covered[i] || regions[ids[i]].label === background) return false;
		}
		return true;
	}

	private near(x: number, y: number, slackPx: number): boolean {
		const { width, height, ids } = this.map;
		for (let dy = -slackPx; dy <= slackPx; dy++) {
			for (let dx = -slackPx; dx <= slackPx; dx++) {
				const nx = x + dx;
				const ny = y + dy;
				if (
					nx >= 0 &&
					ny >= 0 &&
					nx < width &&
					ny < height &&
					ids[ny * width + nx] === this.regionId
				)
					return true;
			}
		}
		return false;
	}

	/**
	 * Stitches to a point when the way there stays inside the region, else travels there as
	 * `travelTo` does (hidden, or a jump when no hidden way exists).
	 */
	joinTo(x: number, y: number): void {
		const [nx, ny] = this.needle.position;
		const slack = max(1, round(this.needle.px(joinSlackMm)));
		if (this.inside(nx, ny, x, y, slack)) this.needle.stitchTo(x, y);
		else this.travelTo(x, y);
	}

	/**
	 * Moves to the next section or shape: a straight run hidden under top stitching still to
	 * come, else a hidden route around what must stay bare (see `hiddenRoute`), else a jump.
	 */
	travelTo(x: number, y: number): void {
		const { needle, map, regionId } = this;
		const [nx, ny] = needle.position;
		if (this.straightHidden(x, y)) {
			needle.travelTo(x, y, true);
			return;
		}
		if (this.searchesRoute(x, y) && (!this.groups || this.groups.connected([nx, ny], [x, y]))) {
			const distance = hypot(x - nx, y - ny);
			const route = hiddenRoute(
				map,
				this.covered,
				map.regions[regionId].label,
				[nx, ny],
				[x, y],
				max(1, needle.px(routeCellMm)),
				max(distance * maxRouteDetour, needle.px(maxRouteMm)),
				this.groups?.gaps,
				needle.px(needle.rules.travelStitchMm),
			);
			if (route) {
				for (const [rx, ry] of route.slice(1)) needle.stitchTo(rx, ry);
				return;
			}
		}
		needle.travelTo(x, y, false);
	}

	/**
	 * The next section of rows to sew: the one whose start is nearest the needle (see
	 * `sectionStart`), unless the needle would need a route to reach it. Then, of the ends of runs of
	 * rows, the one a hidden run reaches by the shortest way; when it reaches none, the first in the
	 * scan's order. So a shape that winds or branches is sewn along its way, and from one side to the
	 * other where the needle must jump, not nearest first, which leaves pieces behind that each need
	 * a jump back.
	 */
	nextSection(rows: Span[][], frame: ScanFrame): Span[] | null {
		const { needle } = this;
		const nearest = sectionStart(rows, frame, needle.position);
		if (!nearest) return null;
		if (!this.needsRoute(nearest.at)) return takeSection(rows, nearest);
		const ends = runEnds(rows, frame);
		const reached = this.nearestByRoute(ends.map((end) => end.at));
		const best = reached >= 0 ? ends[reached] : (ends[0] ?? nearest);
		return takeSection(rows, best);
	}

	/**
	 * Of the points, the one a hidden run from the needle reaches by the shortest way (searched out to
	 * `maxRouteMm` on the route grid): its index, or -1 when it reaches none.
	 */
	nearestByRoute(points: Array<[number, number]>): number {
		const { needle, map, regionId } = this;
		const reach = routeLengths(
			map,
			this.covered,
			map.regions[regionId].label,
			needle.position,
			points,
			max(1, needle.px(routeCellMm)),
			needle.px(maxRouteMm),
			this.groups?.gaps,
		);
		let best = -1;
		let bestLength = Infinity;
		points.forEach((point, k) => {
			const length = reach(...point);
			if (length < bestLength) {
				best = k;
				bestLength = length;
			}
		});
		return best;
	}

	/** True when `travelTo` would search a route to the point: no straight hidden run reaches it. */
	needsRoute([x, y]: [number, number]): boolean {
		return this.searchesRoute(x, y) && !this.straightHidden(x, y);
	}

	/** True when a straight travel run to the point, short enough to hide, stays hidden. */
	private straightHidden(x: number, y: number): boolean {
		const [nx, ny] = this.needle.position;
		return (
			hypot(x - nx, y - ny) <= this.needle.px(maxHiddenTravelMm) && this.hiddenPath(nx, ny, x, y)
		);
	}

	/**
	 * True when a route to the point is worth searching: the needle is anchored (a run may start from
	 * it) and the point is more than a stub away.
	 */
	private searchesRoute(x: number, y: number): boolean {
		const [nx, ny] = this.needle.position;
		return this.needle.anchored && hypot(x - nx, y - ny) > this.needle.px(routeMinMm);
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

/** Sews every section of the scan, travelling between sections. */
export function sewSections(
	sewing: RegionSewing,
	frame: ScanFrame,
	rows: Span[][],
	sew: (span: Span) => void,
): void {
	for (;;) {
		const section = sewing.nextSection(rows, frame);
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
