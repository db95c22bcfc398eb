import { abs, atan2, cos, floor, hypot, max, sin } from './math';
import type { RegionMap } from './regions';

/** A point in working-pixel coordinates (a pixel's centre is at +0.5). */
export type Point = [number, number];
/**
 * A needle point with the offset its two passes take to either side: the way out at (x + sx,
 * y + sy), the way back at (x - sx, y - sy).
 */
export type SidedPoint = [x: number, y: number, sx: number, sy: number];

/**
 * The centre line of a region one pixel thin (Zhang-Suen thinning of its pixels), as a mask over
 * the region's box with a one-pixel border: what a line or a lattice of lines is drawn along.
 */
export interface Skeleton {
	/** Box origin in map pixels (the border pixel). */
	x0: number;
	y0: number;
	w: number;
	h: number;
	/** 1 where the centre line runs. */
	mask: Uint8Array;
	/** Where it runs, as indices into `mask` in scan order, when known. */
	pixels?: number[];
}

const around8 = [
	[0, -1],
	[1, -1],
	[1, 0],
	[1, 1],
	[0, 1],
	[-1, 1],
	[-1, 0],
	[-1, -1],
];

/**
 * Thins a region to its centre line (Zhang and Suen's two sub-iterations until nothing changes).
 * Given the region's pixels (`regionPixels`), its box is never scanned.
 */
export function skeletonise(map: RegionMap, regionId: number, pixels?: Int32Array): Skeleton {
	const region = map.regions[regionId];
	const x0 = region.minX - 1;
	const y0 = region.minY - 1;
	const w = region.maxX - region.minX + 3;
	const h = region.maxY - region.minY + 3;
	const mask = new Uint8Array(w * h);
	let live: number[] | undefined;
	if (pixels) {
		live = [];
		for (const i of pixels) {
			const x = i % map.width;
			const k = ((i - x) / map.width - y0) * w + x - x0;
			mask[k] = 1;
			live.push(k);
		}
	} else {
		for (let y = 1; y < h - 1; y++) {
			for (let x = 1; x < w - 1; x++) {
				if (map.ids[(y0 + y) * map.width + x0 + x] === regionId) mask[y * w + x] = 1;
			}
		}
	}
	return { x0, y0, w, h, mask, pixels: thin(mask, w, h, live) };
}

/**
 * Which 8-neighbourhoods (bit k set where `around8[k]` is in the mask) each of Zhang and Suen's two
 * sub-iterations removes the middle pixel of: 2 to 6 neighbours, one run of them round it, and not
 * both ends of the pass's pair of directions covered.
 */
const thinnable = [0, 1].map((pass) => {
	const table = new Uint8Array(256);
	for (let code = 0; code < 256; code++) {
		const p = around8.map((_, k) => (code >> k) & 1);
		const count = p.reduce((sum, bit) => sum + bit, 0);
		let transitions = 0;
		for (let k = 0; k < 8; k++) if (!p[k] && p[(k + 1) % 8]) transitions++;
		// p[0] north, p[2] east, p[4] south, p[6] west.
		const kept =
			pass === 0
				? p[0] * p[2] * p[4] || p[2] * p[4] * p[6]
				: p[0] * p[2] * p[6] || p[0] * p[4] * p[6];
		table[code] = count >= 2 && count <= 6 && transitions === 1 && !kept ? 1 : 0;
	}
	return table;
});

/**
 * Thins a mask (with a one-pixel empty border) to its centre line, in place; returns the pixels left,
 * in scan order. `pixels`, when given, are the mask's pixels in scan order (the mask is not scanned).
 */
export function thin(mask: Uint8Array, w: number, h: number, pixels?: number[]): number[] {
	const offsets = around8.map(([dx, dy]) => dy * w + dx);
	const [n0, n1, n2, n3, n4, n5, n6, n7] = offsets;
	const all: number[] = pixels ?? [];
	if (!pixels) {
		for (let y = 1; y < h - 1; y++) {
			for (let i = y * w + 1; i < y * w + w - 1; i++) if (mask[i]) all.push(i);
		}
	}
	// A pass removes what the mask held when it began, so the order pixels are looked at in does not
	// matter, and a pixel whose neighbours are as they were when a pass of the same kind last kept it
	// is kept again: each pass looks only at the pixels queued for it (bit `pass` of `queued`), at
	// first all of them, then the neighbours of the pixels removed. A line eaten from its ends (a
	// slanted one is, a pixel or two a pass) costs its length, not its length times the passes.
	const queued = new Uint8Array(w * h);
	const queues = [all.slice(), all.slice()];
	for (const i of all) queued[i] = 3;
	const doomed: number[] = [];
	for (let changed = true; changed; ) {
		changed = false;
		for (let pass = 0; pass < 2; pass++) {
			const table = thinnable[pass];
			const candidates = queues[pass];
			queues[pass] = [];
			doomed.length = 0;
			for (const i of candidates) {
				queued[i] &= ~(1 << pass);
				if (!mask[i]) continue;
				const code =
					mask[i + n0] |
					(mask[i + n1] << 1) |
					(mask[i + n2] << 2) |
					(mask[i + n3] << 3) |
					(mask[i + n4] << 4) |
					(mask[i + n5] << 5) |
					(mask[i + n6] << 6) |
					(mask[i + n7] << 7);
				if (table[code]) doomed.push(i);
			}
			for (const i of doomed) mask[i] = 0;
			if (doomed.length) changed = true;
			for (const i of doomed) {
				for (const offset of offsets) {
					const j = i + offset;
					if (!mask[j]) continue;
					for (let kind = 0; kind < 2; kind++) {
						if (queued[j] & (1 << kind)) continue;
						queued[j] |= 1 << kind;
						queues[kind].push(j);
					}
				}
			}
		}
	}
	return all.filter((i) => mask[i]);
}

/**
 * Walks every part of a skeleton out and back, as a double running stitch does: a depth-first
 * tour from the pixel nearest `from`, each branch sewn out to its tip and back over the same
 * needle points, so the return pass lies on the first. Needle points are skeleton pixels at most
 * `stepPx` apart along it, kept where it bends (a chord may stray `tolerancePx` from the line's
 * middle, twice that when it is shorter than `shortPx`: held closer, short stitches multiply),
 * forks or ends; each on the way is moved to the middle of the line across it (`centre`, given
 * the line's direction there), and each end of a line out to where the line ends (`tip`, given
 * the direction it points in). Side branches
 * no longer than `spurPx` (the stubs thinning leaves at a line's corners) are not sewn.
 * Returns one tour per connected piece, each starting nearest where the last one ended.
 */
export function doubleRunTours(
	skeleton: Skeleton,
	from: Point,
	options: { stepPx: number; tolerancePx: number; shortPx: number; spurPx: number },
	centre: (x: number, y: number, dx: number, dy: number) => Point | SidedPoint,
	tip: (x: number, y: number, dx: number, dy: number) => Point = (x, y) => [x, y],
): Point[][] {
	const { x0, y0, w, mask } = skeleton;
	const seen = new Uint8Array(mask.length);
	const tours: Point[][] = [];
	// In scan order: the nearest pixel is the first of those as near.
	const line = skeleton.pixels ?? [];
	if (!skeleton.pixels) for (let i = 0; i < mask.length; i++) if (mask[i]) line.push(i);
	let [fx, fy] = from;
	for (;;) {
		let root = -1;
		let best = Infinity;
		for (const i of line) {
			if (seen[i]) continue;
			const d = hypot((i % w) + x0 + 0.5 - fx, floor(i / w) + y0 + 0.5 - fy);
			if (d < best) {
				best = d;
				root = i;
			}
		}
		if (root < 0) return tours;
		let tree = depthFirstTree(skeleton, root, seen);
		// Started just short of a line's end, the stub to it would be cut as a spur and the end never
		// reached: start at the end.
		const end = nearestEnd(skeleton, tree, root, 2 * options.spurPx);
		if (end !== root) {
			for (const i of tree.order) seen[i] = 0;
			tree = depthFirstTree(skeleton, end, seen);
		}
		pruneSpurs(tree, options.spurPx);
		const tour = tourOf(skeleton, tree, options, centre, tip);
		tours.push(tour);
		[fx, fy] = tour[tour.length - 1];
	}
}

interface Tree {
	root: number;
	/** Pixels in the order the search reached them (every parent before its children). */
	order: number[];
	parent: Map<number, number>;
	children: Map<number, number[]>;
}

/** A depth-first search over the skeleton's 8-connected pixels, straight steps tried before diagonal. */
function depthFirstTree(skeleton: Skeleton, root: number, seen: Uint8Array): Tree {
	const { w, mask } = skeleton;
	const tree: Tree = { root, order: [], parent: new Map(), children: new Map() };
	const stack: Array<[number, number]> = [[root, -1]];
	while (stack.length) {
		const [i, up] = stack.pop() as [number, number];
		if (seen[i]) continue;
		seen[i] = 1;
		tree.order.push(i);
		tree.parent.set(i, up);
		tree.children.set(i, []);
		if (up >= 0) (tree.children.get(up) as number[]).push(i);
		for (const k of [7, 5, 3, 1, 6, 4, 2, 0]) {
			const j = i + around8[k][1] * w + around8[k][0];
			if (mask[j] && !seen[j]) stack.push([j, i]);
		}
	}
	return tree;
}

/** The end of a line nearest `root` within `reachPx` of it (`root` itself when there is none). */
function nearestEnd(skeleton: Skeleton, tree: Tree, root: number, reachPx: number): number {
	const { w } = skeleton;
	let end = root;
	let best = reachPx;
	for (const i of tree.order) {
		const d = hypot((i % w) - (root % w), floor(i / w) - floor(root / w));
		if (d <= best && endOfLine(skeleton, i)) {
			best = d;
			end = i;
		}
	}
	return end;
}

/** Cuts side branches of at most `spurPx` pixels from their fork. */
function pruneSpurs(tree: Tree, spurPx: number): void {
	const { parent, children } = tree;
	const cut = new Set<number>();
	for (const leaf of tree.order) {
		if (cut.has(leaf) || leaf === tree.root || (children.get(leaf) as number[]).length > 0)
			continue;
		const branch = [leaf];
		let fork = parent.get(leaf) as number;
		while (fork !== tree.root && (children.get(fork) as number[]).length === 1) {
			branch.push(fork);
			fork = parent.get(fork) as number;
		}
		const kids = children.get(fork) as number[];
		if (branch.length > spurPx || kids.length < 2) continue;
		kids.splice(kids.indexOf(branch[branch.length - 1]), 1);
		for (const pixel of branch) cut.add(pixel);
	}
}

/** The out-and-back tour of a tree through its needle pixels. */
function tourOf(
	skeleton: Skeleton,
	tree: Tree,
	{ stepPx, tolerancePx, shortPx }: { stepPx: number; tolerancePx: number; shortPx: number },
	centre: (x: number, y: number, dx: number, dy: number) => Point | SidedPoint,
	tip: (x: number, y: number, dx: number, dy: number) => Point,
): Point[] {
	const { x0, y0, w } = skeleton;
	const { root, parent, children } = tree;
	const at = (i: number): Point => [(i % w) + x0 + 0.5, floor(i / w) + y0 + 0.5];
	const kidsOf = (i: number) => children.get(i) as number[];
	// The line's direction at a pixel: from two pixels back to two pixels on, as far as it goes.
	const direction = (i: number): Point => {
		let before = i;
		for (let k = 0; k < 2 && (parent.get(before) as number) >= 0; k++)
			before = parent.get(before) as number;
		let after = i;
		for (let k = 0; k < 2 && kidsOf(after).length === 1; k++) after = kidsOf(after)[0];
		const [bx, by] = at(before);
		const [ax, ay] = at(after);
		return [ax - bx, ay - by];
	};
	// Out of a line's end: along its last pixels (up to `tipReachPx`, up to a fork), as their own
	// straight line runs; two pixels give a stair step's angle, and a tip walked out that way leaves
	// a slanted line through its side, well short of its end.
	const outward = (i: number): Point => {
		const chain = [at(i)];
		const next = (k: number): number => {
			if (i === root) return kidsOf(k).length === 1 ? kidsOf(k)[0] : -1;
			const up = parent.get(k) as number;
			return up >= 0 && kidsOf(up).length === 1 ? up : -1;
		};
		for (let k = next(i); k >= 0 && chain.length <= tipReachPx; k = next(k)) chain.push(at(k));
		const [dx, dy] = lineDirection(chain);
		const [x, y] = chain[0];
		const [fx, fy] = chain[chain.length - 1];
		return (x - fx) * dx + (y - fy) * dy >= 0 ? [dx, dy] : [-dx, -dy];
	};
	// The middle of the line across a pixel inside a line (one pixel on), asked once per pixel.
	const middles = new Map<number, Point | SidedPoint>();
	const middleOf = (i: number): Point | SidedPoint => {
		let point = middles.get(i);
		if (!point) {
			const [x, y] = at(i);
			point = kidsOf(i).length === 1 ? centre(x, y, ...direction(i)) : [x, y];
			middles.set(i, point);
		}
		return point;
	};
	// Where a pixel lies on the line, for measuring bends: on its middle, so the stair steps of a
	// thinned straight line do not read as bends (its first two numbers; a line's end stays put).
	const onLine = (i: number): Point | SidedPoint => (endOfLine(skeleton, i) ? at(i) : middleOf(i));
	// Needle pixels, decided from the root outwards so both passes share them.
	const needle = new Set<number>([root]);
	const anchorOf = new Map<number, number>([[root, root]]);
	const stack = [...kidsOf(root)];
	while (stack.length) {
		const i = stack.pop() as number;
		stack.push(...kidsOf(i));
		const up = parent.get(i) as number;
		const anchor = needle.has(up) ? up : (anchorOf.get(up) as number);
		anchorOf.set(i, anchor);
		if (kidsOf(i).length !== 1) {
			needle.add(i);
			continue;
		}
		const [ax, ay] = onLine(anchor);
		const [bx, by] = onLine(i);
		const length = hypot(bx - ax, by - ay);
		// How far a straight stitch from the anchor to here would stray from the line between.
		let stray = 0;
		for (let k = up; k !== anchor; k = parent.get(k) as number) {
			const [px, py] = onLine(k);
			stray = max(stray, abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / (length || 1e-9));
		}
		const [ux, uy] = onLine(up);
		const allowed = hypot(ux - ax, uy - ay) >= shortPx ? tolerancePx : 2 * tolerancePx;
		if ((length > stepPx || stray > allowed) && up !== anchor) {
			// Too long or bent too far: the last pixel that was still fine takes a needle point.
			needle.add(up);
			anchorOf.set(i, up);
		}
	}
	const points: Point[] = [];
	const placed = new Map<number, Point | SidedPoint>();
	const pierce = (i: number, back: boolean) => {
		let point = placed.get(i);
		if (!point) {
			const [x, y] = at(i);
			// Thinning stops short of a line's end (half its width, and more where it runs at a slant
			// to the pixels): the tip goes on to it.
			point = endOfLine(skeleton, i) ? tip(x, y, ...outward(i)) : middleOf(i);
			placed.set(i, point);
		}
		// A line wider than a thread: the way out lies on one side of its middle, the way back on the other.
		const sign = back ? -1 : 1;
		const hole: Point =
			point.length === 4
				? [point[0] + sign * point[2], point[1] + sign * point[3]]
				: [point[0], point[1]];
		const last = points[points.length - 1];
		if (!last || last[0] !== hole[0] || last[1] !== hole[1]) points.push(hole);
	};
	pierce(root, false);
	const walk: Array<[number, number]> = [[root, 0]];
	while (walk.length) {
		const top = walk[walk.length - 1];
		const kids = kidsOf(top[0]);
		if (top[1] < kids.length) {
			const child = kids[top[1]++];
			if (needle.has(child)) pierce(child, false);
			walk.push([child, 0]);
		} else {
			walk.pop();
			const back = walk[walk.length - 1];
			if (back && needle.has(back[0])) pierce(back[0], true);
		}
	}
	return points;
}

/** How many pixels back from a line's end its direction there is read over. */
const tipReachPx = 12;

/** The unit direction of the least-squares line through points. */
function lineDirection(points: Point[]): Point {
	let mx = 0;
	let my = 0;
	for (const [x, y] of points) {
		mx += x / points.length;
		my += y / points.length;
	}
	let sxx = 0;
	let sxy = 0;
	let syy = 0;
	for (const [x, y] of points) {
		sxx += (x - mx) * (x - mx);
		sxy += (x - mx) * (y - my);
		syy += (y - my) * (y - my);
	}
	const angle = 0.5 * atan2(2 * sxy, sxx - syy);
	return [cos(angle), sin(angle)];
}

/** True for a skeleton pixel with one skeleton neighbour: the end of a line. */
function endOfLine(skeleton: Skeleton, i: number): boolean {
	const { w, mask } = skeleton;
	let count = 0;
	for (const [dx, dy] of around8) count += mask[i + dy * w + dx];
	return count === 1;
}
