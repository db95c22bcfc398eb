import { ceil, floor, hypot, max, min } from './math';
import { background, type RegionMap } from './regions';

/** Most grid cells a route search may look at before it gives up (and the needle jumps). */
const maxVisitedCells = 60_000;

/**
 * A travel route that stays hidden: a path of stitches from `from` to `to` over pixels whose top
 * stitching is still to come (any colour: it will cover the run) or is already sewn in this
 * thread's own colour (`label`: the run disappears into it), never over bare fabric or over
 * another colour's finished stitching. Searched on a grid of `cellPx` cells (A*, eight
 * neighbours), then straightened to the fewest corners that keep it hidden. Null when there is
 * no such path no longer than `maxLengthPx`.
 */
export function hiddenRoute(
	map: RegionMap,
	covered: Uint8Array,
	label: number,
	from: [number, number],
	to: [number, number],
	cellPx: number,
	maxLengthPx: number,
): Array<[number, number]> | null {
	const { width, height, ids, regions } = map;
	const open = (x: number, y: number): boolean => {
		const px = floor(x);
		const py = floor(y);
		if (px < 0 || py < 0 || px >= width || py >= height) return false;
		const i = py * width + px;
		const regionLabel = regions[ids[i]].label;
		if (regionLabel === background) return false;
		return !covered[i] || regionLabel === label;
	};
	const cols = ceil(width / cellPx);
	const rows = ceil(height / cellPx);
	const cellOf = ([x, y]: [number, number]) =>
		min(rows - 1, max(0, floor(y / cellPx))) * cols + min(cols - 1, max(0, floor(x / cellPx)));
	const centre = (c: number): [number, number] => [
		((c % cols) + 0.5) * cellPx,
		(floor(c / cols) + 0.5) * cellPx,
	];
	const start = cellOf(from);
	const goal = cellOf(to);
	const [gx, gy] = centre(goal);
	const grid = searchGrid(cols * rows);
	const { cost, parent, seen, stamp } = grid;
	seen[start] = stamp;
	cost[start] = 0;
	parent[start] = -1;
	const heap = new MinHeap();
	heap.push(start, hypot(gx - from[0], gy - from[1]));
	let visited = 0;
	let found = false;
	while (heap.size && visited < maxVisitedCells) {
		const c = heap.pop();
		visited++;
		if (c === goal) {
			found = true;
			break;
		}
		const cx = c % cols;
		const cy = floor(c / cols);
		const base = cost[c];
		for (let dy = -1; dy <= 1; dy++) {
			for (let dx = -1; dx <= 1; dx++) {
				if (!dx && !dy) continue;
				const nx = cx + dx;
				const ny = cy + dy;
				if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
				const n = ny * cols + nx;
				const next = base + (dx && dy ? 1.4142 : 1) * cellPx;
				if (next > maxLengthPx) continue;
				if (seen[n] === stamp && cost[n] <= next) continue;
				const px = (nx + 0.5) * cellPx;
				const py = (ny + 0.5) * cellPx;
				if (n !== goal && !open(px, py)) continue;
				seen[n] = stamp;
				cost[n] = next;
				parent[n] = c;
				heap.push(n, next + hypot(gx - px, gy - py));
			}
		}
	}
	if (!found) return null;
	const cells: Array<[number, number]> = [to];
	for (let c = parent[goal]; c >= 0 && c !== start; c = parent[c]) cells.push(centre(c));
	cells.push(from);
	cells.reverse();
	return straighten(cells, (a, b) => clear(a, b, open));
}

/** Search arrays kept between routes (a design's travels share one grid size), told apart by a stamp. */
let shared: { cost: Float64Array; parent: Int32Array; seen: Uint32Array; stamp: number } | null =
	null;

function searchGrid(size: number) {
	if (!shared || shared.cost.length !== size) {
		shared = {
			cost: new Float64Array(size),
			parent: new Int32Array(size),
			seen: new Uint32Array(size),
			stamp: 0,
		};
	}
	shared.stamp++;
	return shared;
}

/** Keeps only the corners a hidden path needs: from each kept point, the farthest one in clear sight. */
function straighten(
	points: Array<[number, number]>,
	clearLine: (a: [number, number], b: [number, number]) => boolean,
): Array<[number, number]> {
	const out: Array<[number, number]> = [points[0]];
	let k = 0;
	while (k < points.length - 1) {
		let next = k + 1;
		for (let j = points.length - 1; j > k + 1; j--) {
			if (clearLine(points[k], points[j])) {
				next = j;
				break;
			}
		}
		out.push(points[next]);
		k = next;
	}
	return out;
}

/** True when every half pixel of the line between a and b (less its very ends) is open. */
function clear(
	[ax, ay]: [number, number],
	[bx, by]: [number, number],
	open: (x: number, y: number) => boolean,
): boolean {
	const length = hypot(bx - ax, by - ay);
	const steps = max(1, ceil(length / 0.5));
	for (let s = 1; s < steps; s++) {
		if (!open(ax + ((bx - ax) * s) / steps, ay + ((by - ay) * s) / steps)) return false;
	}
	return true;
}

/** A binary min-heap of numbers keyed by priority. */
class MinHeap {
	private items: number[] = [];
	private keys: number[] = [];

	get size(): number {
		return this.items.length;
	}

	push(item: number, key: number): void {
		this.items.push(item);
		this.keys.push(key);
		let k = this.items.length - 1;
		while (k > 0) {
			const up = (k - 1) >> 1;
			if (this.keys[up] <= this.keys[k]) break;
			this.swap(k, up);
			k = up;
		}
	}

	pop(): number {
		const top = this.items[0];
		const lastItem = this.items.pop() as number;
		const lastKey = this.keys.pop() as number;
		if (this.items.length) {
			this.items[0] = lastItem;
			this.keys[0] = lastKey;
			let k = 0;
			for (;;) {
				const l = 2 * k + 1;
				const r = l + 1;
				let m = k;
				if (l < this.items.length && this.keys[l] < this.keys[m]) m = l;
				if (r < this.items.length && this.keys[r] < this.keys[m]) m = r;
				if (m === k) break;
				this.swap(k, m);
				k = m;
			}
		}
		return top;
	}

	private swap(a: number, b: number): void {
		[this.items[a], this.items[b]] = [this.items[b], this.items[a]];
		[this.keys[a], this.keys[b]] = [this.keys[b], this.keys[a]];
	}
}
