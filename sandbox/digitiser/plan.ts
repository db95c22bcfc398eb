import { Command, Pattern } from '../engine';
import type { ExactPoints } from './fit';
import { Needle, type NeedleRules } from './needle';
import { background, regionPixels, type RegionMap } from './regions';
import { sewOpenFill } from './fill';
import type { OpenFill } from './openfill';
import { sewnAsRunning, sewRegion } from './sew';
import { bridgeGapMm, maxRouteMm, RegionSewing, routeCellMm, type Density } from './sewing';
import { narrowGaps, nearestReachable, threadBox, TravelGroups } from './travel';
import { floor, max } from './math';

const rules: NeedleRules = { maxStitchMm: 4, travelStitchMm: 2.5, trimAfterMm: 2.5, tieMm: 0.7 };

/**
 * Sews every region, one colour block per thread (so colour changes are as few as
 * possible), broad colours first and thin ones (outlines, lines, lettering) last, so what
 * lies on top in the artwork lies on top in thread and the edges that fill and compensation
 * push into a neighbour are covered by it; within a block, the next region is the one a hidden
 * travel run reaches first, or when none is in reach the nearest (a jump, trimmed if long).
 */
export function planStitches(
	map: RegionMap,
	threadCount: number,
	pixelMm: number,
	density: Density,
): { pattern: Pattern; blocks: number[]; exact: ExactPoints } {
	const byThread: number[][] = Array.from({ length: threadCount }, () => []);
	const areas = new Array<number>(threadCount).fill(0);
	for (const region of map.regions) {
		if (region.label === background) continue;
		// At this scale: where travel of another thread may hide depends on it (see `hiddenRoute`).
		region.line = sewnAsRunning(region, pixelMm);
		byThread[region.label].push(region.id);
		areas[region.label] += region.area;
	}
	const overlays: OpenFill[][] = Array.from({ length: threadCount }, () => []);
	for (const open of map.openFills ?? []) overlays[open.thread].push(open);
	// How broad each thread's areas are: their area over their edge, about half their shapes' typical width.
	const { labels, edges } = threadEdges(map, threadCount);
	const thickness = areas.map((area, label) => (edges[label] ? area / edges[label] : 0));
	const blocks = byThread
		.map((_, thread) => thread)
		.filter((thread) => byThread[thread].length > 0 || overlays[thread].length > 0)
		.sort((a, b) => thickness[b] - thickness[a] || areas[b] - areas[a] || a - b);
	underFirst(map, blocks);
	groundFirst(map, labels, edges, blocks);

	const pattern = new Pattern(16384);
	const needle = new Needle(
		pattern,
		pixelMm,
		(map.width * pixelMm * 10) / 2,
		(map.height * pixelMm * 10 * (map.pixelAspect ?? 1)) / 2,
		rules,
		map.pixelAspect ?? 1,
	);
	const covered = new Uint8Array(map.width * map.height);
	const pixelsOf = regionPixels(map);
	blocks.forEach((thread, blockIndex) => {
		if (blockIndex > 0) needle.mark(Command.ColorChange);
		const pending = new Set(byThread[thread]);
		const gaps = narrowGaps(map, thread, floor(needle.px(bridgeGapMm) / 2));
		const groups = new TravelGroups(map, covered, thread, max(1, needle.px(routeCellMm)), gaps);
		while (pending.size) {
			const next = nextRegion(map, covered, thread, needle, pending, groups);
			pending.delete(next);
			sewRegion(new RegionSewing(needle, map, next, covered, groups, pixelsOf), density);
		}
		// Open rows last: their areas are filled already, in a thread sewn before this one.
		const open = new Map(overlays[thread].map((o) => [o.regionId, o]));
		while (open.size) {
			const next = nearestRegion(map, new Set(open.keys()), needle.position);
			const sewing = new RegionSewing(needle, map, next, covered, groups);
			sewOpenFill(sewing, open.get(next)!, density);
			open.delete(next);
		}
		needle.tieOff();
		coverThread(map, thread, covered);
	});
	needle.mark(Command.End);
	return { pattern, blocks, exact: needle.exact };
}

/**
 * The piece to sew next: of those a hidden run from the needle can reach, the one it reaches by
 * the shortest way; when none is in reach, the nearest (the needle jumps there).
 */
function nextRegion(
	map: RegionMap,
	covered: Uint8Array,
	thread: number,
	needle: Needle,
	pending: Set<number>,
	groups: TravelGroups,
): number {
	const reachable = new Set([...pending].filter((id) => groups.reaches(needle.position, id)));
	const found =
		reachable.size > 0
			? nearestReachable(
					map,
					covered,
					thread,
					needle.position,
					reachable,
					max(1, needle.px(routeCellMm)),
					needle.px(maxRouteMm),
					groups.gaps,
				)
			: null;
	return found ?? nearestRegion(map, reachable.size ? reachable : pending, needle.position);
}

/**
 * Moves the thread under each open fill ahead of the thread of its rows, when the order by breadth
 * put it after. Each move keeps the blocks' other order.
 */
function underFirst(map: RegionMap, blocks: number[]): void {
	for (const open of map.openFills ?? []) {
		const lower = map.regions[open.regionId].label;
		const top = blocks.indexOf(open.thread);
		const at = blocks.indexOf(lower);
		if (at < top) continue;
		blocks.splice(at, 1);
		blocks.splice(top, 0, lower);
	}
}

/** Share of a thread's edges against an open fill for its shapes to lie on that fill. */
const lyingOnShare = 0.8;

/**
 * Moves each open fill's two threads (the fill under, then the rows) ahead of every thread whose
 * shapes lie on them: where they meet other colours, they meet those two threads along
 * `lyingOnShare` of their edges (a tree on a striped ground). Sewn after the tree, each piece of a
 * row the tree cuts off needed a jump and a trim; sewn first, the needle travels between the pieces
 * under the tree, still to come. Each move keeps the blocks' other order.
 */
function groundFirst(map: RegionMap, labels: Uint8Array, edges: number[], blocks: number[]): void {
	const { width, height, regions } = map;
	const grounds = new Map<string, [number, number]>();
	for (const open of map.openFills ?? []) {
		const under = regions[open.regionId].label;
		grounds.set(`${under}/${open.thread}`, [under, open.thread]);
	}
	for (const [under, rows] of grounds.values()) {
		// Each thread's edge pixels against the ground (every pixel beside another thread is an edge pixel).
		const against = new Array<number>(edges.length).fill(0);
		for (let y = 0; y < height; y++) {
			for (let x = 0; x < width; x++) {
				const i = y * width + x;
				const label = labels[i];
				if (label === background || label === under || label === rows) continue;
				for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
					if (j >= 0 && j < width * height && (labels[j] === under || labels[j] === rows)) {
						against[label]++;
						break;
					}
				}
			}
		}
		const first = blocks.find(
			(thread) => edges[thread] > 0 && against[thread] >= lyingOnShare * edges[thread],
		);
		if (first === undefined) continue;
		const moving = [under, rows].filter((thread) => blocks.indexOf(thread) > blocks.indexOf(first));
		if (moving.length === 0) continue;
		const rest = blocks.filter((thread) => !moving.includes(thread));
		rest.splice(rest.indexOf(first), 0, ...moving);
		blocks.splice(0, blocks.length, ...rest);
	}
}

function nearestRegion(map: RegionMap, candidates: Set<number>, [x, y]: [number, number]): number {
	let best = -1;
	let bestDistance = Infinity;
	for (const id of candidates) {
		const r = map.regions[id];
		const dx = max(r.minX - x, 0, x - r.maxX - 1);
		const dy = max(r.minY - y, 0, y - r.maxY - 1);
		const d = dx * dx + dy * dy;
		if (d < bestDistance || (d === bestDistance && id < best)) {
			bestDistance = d;
			best = id;
		}
	}
	return best;
}

/**
 * Marks every pixel of a thread's areas as sewn once its block is done: running stitch and
 * satin leave no mark of their own, and a later thread's travel must not run over them.
 */
function coverThread(map: RegionMap, thread: number, covered: Uint8Array): void {
	const { ids, regions, width } = map;
	const box = threadBox(map, thread);
	if (!box) return;
	const [x0, y0, x1, y1] = box;
	for (let y = y0; y <= y1; y++) {
		for (let i = y * width + x0; i <= y * width + x1; i++) {
			if (regions[ids[i]].label === thread) covered[i] = 1;
		}
	}
}

export function countStitches(pattern: Pattern): number {
	let count = 0;
	for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === Command.Stitch) count++;
	return count;
}

/**
 * Each pixel's thread, and each thread's edge: its pixels with a neighbour of another colour (or on
 * the map's edge).
 */
function threadEdges(map: RegionMap, threadCount: number): { labels: Uint8Array; edges: number[] } {
	const { width, height, ids, regions } = map;
	const edges = new Array<number>(threadCount).fill(0);
	const labels = new Uint8Array(width * height);
	for (let i = 0; i < labels.length; i++) labels[i] = regions[ids[i]].label;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			const label = labels[i];
			if (label === background) continue;
			if (
				x === 0 ||
				y === 0 ||
				x === width - 1 ||
				y === height - 1 ||
				labels[i - 1] !== label ||
				labels[i + 1] !== label ||
				labels[i - width] !== label ||
				labels[i + width] !== label
			)
				edges[label]++;
		}
	}
	return { labels, edges };
}
