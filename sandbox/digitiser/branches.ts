import { findColumn } from './column';
import { ceil, floor, hypot, max, min } from './math';
import { components, regionsFromPieces } from './parts';
import {
	background,
	chamferDistances,
	insetDistances,
	type Region,
	type RegionMap,
} from './regions';
import { thin, type Skeleton } from './skeleton';

/**
 * Share of a branched shape that must come out as satin columns for the split to be kept: nearly
 * half, as a band that forks often (looped petals meeting round a flower's middle) leaves about half
 * of itself in the forks, which are filled, and its loops are still better sewn as columns.
 */
const minColumnShare = 0.45;
/** Area, in squares of its width, below which a shape is too compact to branch. */
const minElongation = 4;
/**
 * Gaps in a branched shape up to twice this wide are closed before its centre line is found, mm:
 * the slits between an open satin's stitches (a thread apart, wider on a curve's outside) would
 * each fork it. They are sewn over with the branch they lie in, so wider gaps (the notches where a
 * lattice's lines meet a ring) stay open.
 */
export const branchGapMm = 0.35;
/** How far along each arm a fork's cut lies, in the fork's inscribed radii (and a pixel more). */
const cutReach = 1.5;

/**
 * Splits every shape that is narrow enough for satin everywhere but is not one column (a turtle's
 * flippers joined to its shell, a letter with a crossbar, a bow) at its forks, in place: each
 * branch becomes a region of its own, sewn as a column that turns with it, and each fork a small
 * region where the branches meet. The split is kept only when most of the shape then sews as
 * columns; otherwise the shape stays one region (and is filled).
 */
export function splitBranches(
	map: RegionMap,
	minWidthPx: number,
	maxWidthPx: number,
	closePx: number,
): void {
	const count = map.regions.length;
	for (let id = 0; id < count; id++) {
		const region = map.regions[id];
		if (region.label === background || region.stroke || region.area === 0) continue;
		if (region.widthPx < minWidthPx || region.widthPx > maxWidthPx) continue;
		// A compact shape (a leaf, a dot) has no branches worth a column each.
		if (region.area < minElongation * region.widthPx * region.widthPx) continue;
		splitAtForks(map, region, maxWidthPx, closePx);
	}
}

interface Box {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}

/** The region's box `margin` wider on every side, within the map. */
function insetBox(map: RegionMap, region: Region, margin: number): Box {
	return {
		x0: max(0, region.minX - margin),
		y0: max(0, region.minY - margin),
		x1: min(map.width - 1, region.maxX + margin),
		y1: min(map.height - 1, region.maxY + margin),
	};
}

function readBox(values: Float32Array, width: number, box: Box): Float32Array {
	const w = box.x1 - box.x0 + 1;
	const out = new Float32Array(w * (box.y1 - box.y0 + 1));
	for (let y = box.y0; y <= box.y1; y++) {
		out.set(values.subarray(y * width + box.x0, y * width + box.x1 + 1), (y - box.y0) * w);
	}
	return out;
}

function writeBox(values: Float32Array, width: number, box: Box, from: Float32Array): void {
	const w = box.x1 - box.x0 + 1;
	for (let y = box.y0; y <= box.y1; y++) {
		values.set(from.subarray((y - box.y0) * w, (y - box.y0 + 1) * w), y * width + box.x0);
	}
}

/**
 * Measures the inset again over a box after labels inside it changed, as `insetDistances` does
 * over the whole map: each value is kept where the box's own cut (not the map's edge) lies farther
 * than the nearest edge found, so only exact values are written.
 */
function refreshInset(map: RegionMap, box: Box): void {
	const { width, height, ids, regions, inset } = map;
	const w = box.x1 - box.x0 + 1;
	const h = box.y1 - box.y0 + 1;
	const labels = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++)
			labels[y * w + x] = regions[ids[(box.y0 + y) * width + box.x0 + x]].label;
	}
	const d = insetDistances(labels, w, h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const cut = min(
				box.x0 > 0 ? x : Infinity,
				box.y0 > 0 ? y : Infinity,
				box.x1 < width - 1 ? w - 1 - x : Infinity,
				box.y1 < height - 1 ? h - 1 - y : Infinity,
			);
			if (d[y * w + x] < cut) inset[(box.y0 + y) * width + box.x0 + x] = d[y * w + x];
		}
	}
}

/**
 * Splits one shape at the forks of its centre line (found with its gaps closed; stubs to its
 * corners pruned): round each fork the shape is cut straight across every arm, a little more than
 * the fork's inscribed radius out along it, and what lies short of every cut is the fork's own
 * region. Branches smaller than a square of the shape's width go with their fork. Keeps the split
 * (true) when at least `minColumnShare` of the shape is then branches that are columns; otherwise
 * puts the map back as it was (labels, areas, insets) and returns false.
 */
function splitAtForks(
	map: RegionMap,
	region: Region,
	maxWidthPx: number,
	closePx: number,
): boolean {
	const { width, ids } = map;
	const margin = ceil(maxWidthPx / 2) + 3;
	const { skeleton, pixels, closed, depth } = closedSkeleton(map, region, closePx);
	pruneSpurs(skeleton, pixels, max(3, region.widthPx * 0.75));
	const forks = forkPoints(skeleton, pixels);
	if (forks.length === 0 || findColumn(map, region.id, maxWidthPx + 1)) return false;
	const x0 = region.minX;
	const y0 = region.minY;
	const w = region.maxX - x0 + 1;
	const h = region.maxY - y0 + 1;
	// 0 outside, 1 branch, 2 fork.
	const kind = new Uint8Array(w * h);
	const cx0 = skeleton.x0;
	const cy0 = skeleton.y0;
	const cw = skeleton.w;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const i = (y0 + y) * width + x0 + x;
			const own = ids[i] === region.id;
			const gap =
				closed[(y0 + y - cy0) * cw + x0 + x - cx0] && map.regions[ids[i]].label === background;
			if (own || gap) kind[y * w + x] = 1;
		}
	}
	for (const [fx, fy] of forks) {
		const reach = depth[(fy - skeleton.y0) * skeleton.w + fx - skeleton.x0] * cutReach + 1;
		const arms = armDirections(skeleton, fx, fy, reach);
		if (arms.length < 3) continue;
		// The joint: the shape's pixels reached from the fork that lie short of every arm's cut, a
		// line across the arm `reach` out along it.
		const k0 = (fy - y0) * w + fx - x0;
		if (!kind[k0]) continue;
		const stack = [k0];
		kind[k0] = 2;
		while (stack.length) {
			const k = stack.pop() as number;
			const x = k % w;
			for (const j of [x > 0 ? k - 1 : -1, x < w - 1 ? k + 1 : -1, k - w, k + w]) {
				if (j < 0 || j >= w * h || kind[j] !== 1) continue;
				const px = (j % w) + x0 + 0.5 - (fx + 0.5);
				const py = floor(j / w) + y0 + 0.5 - (fy + 0.5);
				if (arms.some(([ax, ay]) => px * ax + py * ay >= reach)) continue;
				kind[j] = 2;
				stack.push(j);
			}
		}
	}
	// Branches too short to be columns of their own (a fork's stubs) go with the fork.
	const minBranchPx = region.widthPx * region.widthPx;
	for (const piece of components(kind, w, h, 1)) {
		if (piece.length < minBranchPx) for (const k of piece) kind[k] = 2;
	}
	const branches = components(kind, w, h, 1);
	const branchCount = branches.length;
	const parts = [...branches, ...components(kind, w, h, 2)];
	if (parts.length < 2) return false;
	const before = map.regions.length;
	const saved = new Int32Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) saved[y * w + x] = ids[(y0 + y) * width + x0 + x];
	}
	const savedRegion = { ...region };
	// The gaps closed into the shape join it first (the fabric's regions they came from lose them),
	// so the inset is measured with them before the pieces' widths are.
	const takenFrom = new Map<number, number>();
	for (const piece of parts) {
		for (const k of piece) {
			const i = (y0 + floor(k / w)) * width + x0 + (k % w);
			if (ids[i] === region.id) continue;
			takenFrom.set(ids[i], (takenFrom.get(ids[i]) ?? 0) + 1);
			ids[i] = region.id;
		}
	}
	const box = insetBox(map, savedRegion, margin);
	const savedInset = readBox(map.inset, map.width, box);
	refreshInset(map, box);
	const made = regionsFromPieces(map, region, parts, { x0, y0, w });
	made.forEach((part, n) => {
		if (n < branchCount) part.branch = true;
		else delete part.branch;
	});
	// Largest first, stopping as soon as the share is out of reach.
	let columns = 0;
	let left = savedRegion.area;
	for (const part of made.slice().sort((a, b) => b.area - a.area)) {
		if (columns + left < minColumnShare * savedRegion.area) break;
		left -= part.area;
		if (findColumn(map, part.id, maxWidthPx + 1)) columns += part.area;
	}
	if (columns >= minColumnShare * savedRegion.area) return true;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) ids[(y0 + y) * width + x0 + x] = saved[y * w + x];
	}
	map.regions.length = before;
	Object.assign(region, savedRegion);
	delete region.branch;
	for (const [id, count] of takenFrom) map.regions[id].area += count;
	writeBox(map.inset, map.width, box, savedInset);
	return false;
}

/**
 * Runs of skeleton pixels round a pixel by its ring's code (bit k: the k-th pixel clockwise from the
 * one above is set).
 */
const runsOfRing = Uint8Array.from({ length: 256 }, (_, code) => {
	let runs = 0;
	for (let k = 0; k < 8; k++) if (!(code & (1 << k)) && code & (1 << (k + 1) % 8)) runs++;
	return runs;
});

/** Crossing number: how many separate runs of skeleton pixels surround the pixel. */
function crossings(mask: Uint8Array, w: number, i: number): number {
	const code =
		(mask[i - w] ? 1 : 0) |
		(mask[i - w + 1] ? 2 : 0) |
		(mask[i + 1] ? 4 : 0) |
		(mask[i + w + 1] ? 8 : 0) |
		(mask[i + w] ? 16 : 0) |
		(mask[i + w - 1] ? 32 : 0) |
		(mask[i - 1] ? 64 : 0) |
		(mask[i - w - 1] ? 128 : 0);
	return runsOfRing[code];
}

function neighbours(mask: Uint8Array, w: number, i: number): number[] {
	const out: number[] = [];
	for (const d of [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1]) if (mask[i + d]) out.push(i + d);
	return out;
}

/**
 * Cuts the skeleton's side branches of at most `spurPx` pixels (stubs to a shape's corners). `pixels`:
 * where it ran before, in scan order, as `thin` returns them (never on the box's border); a cut pixel is
 * passed over as the whole box's scan would.
 */
function pruneSpurs(skeleton: Skeleton, pixels: number[], spurPx: number): void {
	const { mask, w } = skeleton;
	for (let round = 0; round < 3; round++) {
		let cut = false;
		for (const i of pixels) {
			if (!mask[i] || neighbours(mask, w, i).length !== 1) continue;
			const path = [i];
			let previous = -1;
			let at = i;
			for (;;) {
				const next = neighbours(mask, w, at).filter((j) => j !== previous && !path.includes(j));
				if (next.length !== 1 || crossings(mask, w, next[0]) >= 3) break;
				previous = at;
				at = next[0];
				path.push(at);
				if (path.length > spurPx) break;
			}
			if (path.length > spurPx) continue;
			const end = neighbours(mask, w, at).filter((j) => !path.includes(j));
			if (end.length === 0) continue;
			for (const j of path) mask[j] = 0;
			cut = true;
		}
		if (!cut) break;
	}
}

/** Fork pixels of the skeleton in map coordinates, one per cluster (`pixels` as for `pruneSpurs`). */
function forkPoints(skeleton: Skeleton, pixels: number[]): Array<[number, number]> {
	const { mask, w, h, x0, y0 } = skeleton;
	const out: Array<[number, number]> = [];
	const taken = new Uint8Array(w * h);
	for (const i of pixels) {
		if (!mask[i] || taken[i] || crossings(mask, w, i) < 3) continue;
		for (const j of [i, ...neighbours(mask, w, i)]) taken[j] = 1;
		out.push([(i % w) + x0, floor(i / w) + y0]);
	}
	return out;
}

/**
 * The centre line of the region with its slits closed (a morphological closing by `closePx`): an
 * open satin's teeth would otherwise each fork it. Holes wider than that (a letter's counter, an
 * eye) stay open and are never sewn over.
 */
function closedSkeleton(
	map: RegionMap,
	region: Region,
	closePx: number,
): { skeleton: Skeleton; pixels: number[]; closed: Uint8Array; depth: Float32Array } {
	const border = ceil(closePx) + 1;
	const x0 = region.minX - border;
	const y0 = region.minY - border;
	const w = region.maxX - region.minX + 1 + 2 * border;
	const h = region.maxY - region.minY + 1 + 2 * border;
	const seed = new Uint8Array(w * h);
	for (let y = border; y < h - border; y++) {
		for (let x = border; x < w - border; x++) {
			if (map.ids[(y0 + y) * map.width + x0 + x] === region.id) seed[y * w + x] = 1;
		}
	}
	const grown = chamferDistances(seed, w, h);
	const outside = new Uint8Array(w * h);
	for (let i = 0; i < w * h; i++) outside[i] = grown[i] > closePx ? 1 : 0;
	const shrunk = chamferDistances(outside, w, h);
	const mask = new Uint8Array(w * h);
	for (let i = 0; i < w * h; i++) mask[i] = shrunk[i] > closePx ? 1 : 0;
	for (let x = 0; x < w; x++) mask[x] = mask[(h - 1) * w + x] = 0;
	for (let y = 0; y < h; y++) mask[y * w] = mask[y * w + w - 1] = 0;
	const closed = mask.slice();
	const open = new Uint8Array(w * h);
	for (let i = 0; i < w * h; i++) open[i] = mask[i] ? 0 : 1;
	const depth = chamferDistances(open, w, h);
	const pixels = thin(mask, w, h);
	return { skeleton: { x0, y0, w, h, mask }, pixels, closed, depth };
}

/**
 * The directions (unit vectors) in which the skeleton leaves a fork: one per run of its pixels
 * on a ring `reach` pixels round it.
 */
function armDirections(
	skeleton: Skeleton,
	fx: number,
	fy: number,
	reach: number,
): Array<[number, number]> {
	const { mask, w, h, x0, y0 } = skeleton;
	// A window round the fork, one pixel wider than the ring, so a shape with many forks reads
	// only their neighbourhoods.
	const r = ceil(reach) + 2;
	const side = 2 * r + 1;
	const ring = new Uint8Array(side * side);
	for (let y = 1; y < side - 1; y++) {
		for (let x = 1; x < side - 1; x++) {
			const mx = fx - x0 - r + x;
			const my = fy - y0 - r + y;
			if (mx < 0 || my < 0 || mx >= w || my >= h || !mask[my * w + mx]) continue;
			const d = hypot(x - r, y - r);
			if (d >= reach - 1 && d < reach + 1) ring[y * side + x] = 1;
		}
	}
	const arms: Array<[number, number]> = [];
	const seen = new Uint8Array(side * side);
	const steps = [-side - 1, -side, -side + 1, -1, 1, side - 1, side, side + 1];
	for (let i = 0; i < side * side; i++) {
		if (!ring[i] || seen[i]) continue;
		let sx = 0;
		let sy = 0;
		const stack = [i];
		seen[i] = 1;
		while (stack.length) {
			const k = stack.pop() as number;
			sx += (k % side) - r;
			sy += floor(k / side) - r;
			for (const d of steps) {
				if (ring[k + d] && !seen[k + d]) {
					seen[k + d] = 1;
					stack.push(k + d);
				}
			}
		}
		const length = hypot(sx, sy);
		if (length > 0) arms.push([sx / length, sy / length]);
	}
	return arms;
}
