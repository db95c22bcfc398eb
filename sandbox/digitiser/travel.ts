import { ceil, floor, hypot, max, min, round } from './math';
import { background, type RegionMap } from './regions';

/** Most grid cells a route search may look at before it gives up (and the needle jumps). */
const maxVisitedCells = 60_000;

/**
 * A travel route that stays hidden: a path of stitches from `from` to `to` over pixels whose top
 * stitching is still to come (any colour: it will cover the run) or is already sewn in this
 * thread's own colour (`label`: the run disappears into it), never over bare fabric or over
 * another colour's finished stitching. Searched on a grid of `cellPx` cells (A*, eight
 * neighbours), then straightened to the fewest corners that keep it hidden, and given needle holes
 * `stitchPx` apart or a little more (see `spaceAlong`). Null when there is no such path no longer
 * than `maxLengthPx`.
 */
export function hiddenRoute(
	map: RegionMap,
	covered: Uint8Array,
	label: number,
	from: [number, number],
	to: [number, number],
	cellPx: number,
	maxLengthPx: number,
	gaps?: Uint8Array,
	stitchPx = Infinity,
): Array<[number, number]> | null {
	const open = hiddenTest(map, covered, label, gaps);
	const grid = new CellGrid(map.width, map.height, cellPx);
	const start = grid.cellOf(from);
	const goal = grid.cellOf(to);
	const gx = grid.x(goal);
	const gy = grid.y(goal);
	const { cost, parent, seen, stamp } = searchGrid(grid.size);
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
		const base = cost[c];
		const count = grid.neighbours(c);
		for (let k = 0; k < count; k++) {
			const n = grid.next[k];
			const next = base + grid.step[k];
			if (next > maxLengthPx) continue;
			if (seen[n] === stamp && cost[n] <= next) continue;
			const px = grid.x(n);
			const py = grid.y(n);
			if (n !== goal && !open(px, py)) continue;
			seen[n] = stamp;
			cost[n] = next;
			parent[n] = c;
			heap.push(n, next + hypot(gx - px, gy - py));
		}
	}
	if (!found) return null;
	const cells: Array<[number, number]> = [to];
	for (let c = parent[goal]; c >= 0 && c !== start; c = parent[c])
		cells.push([grid.x(c), grid.y(c)]);
	cells.push(from);
	cells.reverse();
	// The run's ends may graze what is not hidden for a cell's width (a row end reaches past its
	// shape by the pull compensation): without that, its first and last stitch would be stubs.
	const clearLine = (a: [number, number], b: [number, number]) =>
		clear(a, b, open, a === from ? cellPx : 0, b === to ? cellPx : 0);
	return spaceAlong(straighten(cells, clearLine), stitchPx, clearLine);
}

/**
 * Needle holes along a path of corners, each stitch as near `stepPx` as a whole number of equal
 * stitches over the rest of the path allows (a professional's travel runs at 2-3 mm), cutting
 * across a corner where the stitch stays on hidden ground; where it would not, the hole goes as
 * far past the corner as keeps it hidden. The path's first and last points are holes.
 */
export function spaceAlong(
	corners: Array<[number, number]>,
	stepPx: number,
	clearLine: (a: [number, number], b: [number, number]) => boolean,
): Array<[number, number]> {
	const along = [0];
	for (let k = 1; k < corners.length; k++) {
		const [ax, ay] = corners[k - 1];
		const [bx, by] = corners[k];
		along.push(along[k - 1] + hypot(bx - ax, by - ay));
	}
	const last = corners.length - 1;
	const total = along[last];
	const pointAt = (s: number): [number, number] => {
		if (s >= total - 1e-6) return corners[last];
		let k = 0;
		while (k < last - 1 && along[k + 1] < s) k++;
		const length = along[k + 1] - along[k];
		const t = length > 0 ? min(1, (s - along[k]) / length) : 1;
		const [ax, ay] = corners[k];
		const [bx, by] = corners[k + 1];
		return [ax + (bx - ax) * t, ay + (by - ay) * t];
	};
	const holes: Array<[number, number]> = [corners[0]];
	let done = 0;
	while (total - done > 1e-6) {
		const rest = total - done;
		let next = done + rest / max(1, round(rest / stepPx));
		const from = holes[holes.length - 1];
		if (!clearLine(from, pointAt(next))) {
			// The first corner ahead is in sight (the path runs straight to it); go as far past it as stays so.
			let corner = 1;
			while (along[corner] <= done + 1e-6) corner++;
			const reach = next;
			next = along[corner];
			for (let k = 8; k >= 1; k--) {
				const s = along[corner] + ((reach - along[corner]) * k) / 8;
				if (clearLine(from, pointAt(s))) {
					next = s;
					break;
				}
			}
		}
		holes.push(total - next <= 1e-6 ? corners[last] : pointAt(next));
		done = next;
	}
	return holes;
}

/** Directions round a pixel in which `hiddenTest` looks for ground beside a line. */
const around: ReadonlyArray<readonly [number, number]> = [
	[1, 0],
	[-1, 0],
	[0, 1],
	[0, -1],
	[0.7, 0.7],
	[-0.7, 0.7],
	[0.7, -0.7],
	[-0.7, -0.7],
];

/**
 * Where a travel run of thread `label` stays hidden: on pixels whose top stitching is still to
 * come, or already sewn in this thread. A line of another thread (a region sewn as running
 * stitch, `Region.line`) is sewn one thread wide, and a run along it would show either side of
 * it: a line's pixel hides the run only where such ground, or an area of this thread's open rows,
 * lies within the line's width, so a run may cross a line or run beside such ground, but not
 * follow a line over bare fabric.
 */
function hiddenTest(
	map: RegionMap,
	covered: Uint8Array,
	label: number,
	gaps?: Uint8Array,
): (x: number, y: number) => boolean {
	const { width, height, ids, regions } = map;
	// The areas this thread's open rows lie over (see `findOpenFills`) are its own beside a line.
	const rowsOver = new Set(
		(map.openFills ?? []).filter((open) => open.thread === label).map((open) => open.regionId),
	);
	const ground = (x: number, y: number) => {
		if (x < 0 || y < 0 || x >= width || y >= height) return false;
		const i = y * width + x;
		const region = regions[ids[i]];
		if (region.label === label || rowsOver.has(region.id)) return true;
		return region.label !== background && !region.line && !covered[i];
	};
	return (x, y) => {
		const px = floor(x);
		const py = floor(y);
		if (px < 0 || py < 0 || px >= width || py >= height) return false;
		const i = py * width + px;
		const region = regions[ids[i]];
		if (region.label === background) return gaps !== undefined && gaps[i] === 1;
		if (region.label === label) return true;
		if (covered[i]) return false;
		if (!region.line) return true;
		const reach = ceil(region.widthPx) + 1;
		return around.some(([dx, dy]) => ground(px + round(dx * reach), py + round(dy * reach)));
	};
}

/** The box round every area of thread `label` (from the regions' boxes), null when it has none. */
export function threadBox(map: RegionMap, label: number): [number, number, number, number] | null {
	let x0 = map.width;
	let y0 = map.height;
	let x1 = -1;
	let y1 = -1;
	for (const region of map.regions) {
		if (region.label !== label || region.area === 0) continue;
		x0 = min(x0, region.minX);
		y0 = min(y0, region.minY);
		x1 = max(x1, region.maxX);
		y1 = max(y1, region.maxY);
	}
	return x1 < 0 ? null : [x0, y0, x1, y1];
}

/**
 * The narrow gaps of bare fabric between areas of thread `label`, at most twice `radiusPx`
 * across: the bare pixels a morphological closing of the thread's areas (a square of that
 * radius) fills. A line the artwork breaks for a hair, or two shapes that nearly touch, are
 * crossed there by a short run of their own thread instead of a trim. The closing adds no rim
 * around a shape, so a route never runs along the outside of one.
 */
export function narrowGaps(map: RegionMap, label: number, radiusPx: number): Uint8Array {
	const { width, height, ids, regions } = map;
	const gaps = new Uint8Array(width * height);
	const r = max(0, floor(radiusPx));
	if (r === 0) return gaps;
	const box = threadBox(map, label);
	if (!box) return gaps;
	let [x0, y0, x1, y1] = box;
	// A box round the thread's areas, wide enough that the closing is the same as on the whole map.
	x0 = max(0, x0 - r - 1);
	y0 = max(0, y0 - r - 1);
	x1 = min(width - 1, x1 + r + 1);
	y1 = min(height - 1, y1 + r + 1);
	const bw = x1 - x0 + 1;
	const bh = y1 - y0 + 1;
	const own = new Uint8Array(bw * bh);
	for (let y = 0; y < bh; y++) {
		for (let x = 0; x < bw; x++) {
			own[y * bw + x] = regions[ids[(y + y0) * width + x + x0]].label === label ? 1 : 0;
		}
	}
	const grown = spread(spread(own, bw, bh, r, 1, 1), bw, bh, r, bw, 1);
	const closed = spread(spread(grown, bw, bh, r, 1, 0), bw, bh, r, bw, 0);
	for (let y = 0; y < bh; y++) {
		for (let x = 0; x < bw; x++) {
			const k = y * bw + x;
			const i = (y + y0) * width + x + x0;
			if (closed[k] && !own[k] && regions[ids[i]].label === background) gaps[i] = 1;
		}
	}
	return gaps;
}

/**
 * One pass of a square dilation (`value` 1) or erosion (`value` 0) of a bw x bh mask along rows
 * (`step` 1) or columns (`step` bw): a pixel takes `value` when one within `r` along the line has it.
 * Outside the mask counts as 0.
 */
function spread(
	mask: Uint8Array,
	bw: number,
	bh: number,
	r: number,
	step: number,
	value: number,
): Uint8Array {
	const out = new Uint8Array(mask.length).fill(1 - value);
	const lines = step === 1 ? bh : bw;
	const length = step === 1 ? bw : bh;
	const stride = step === 1 ? bw : 1;
	for (let line = 0; line < lines; line++) {
		const base = line * stride;
		// Distance to the nearest pixel holding `value` (outside counts as 0) from each side.
		let last = value === 0 ? -1 : -Infinity;
		for (let k = 0; k < length; k++) {
			const i = base + k * step;
			if (mask[i] === value) last = k;
			if (k - last <= r) out[i] = value;
		}
		last = value === 0 ? length : Infinity;
		for (let k = length - 1; k >= 0; k--) {
			const i = base + k * step;
			if (mask[i] === value) last = k;
			if (last - k <= r) out[i] = value;
		}
	}
	return out;
}

/**
 * Of the pieces of thread `label` still to sew (`pending`), the one a hidden travel run from
 * `from` reaches by the shortest way, searched outwards on the route grid (Dijkstra) up to
 * `maxLengthPx`; null when none is in reach.
 */
export function nearestReachable(
	map: RegionMap,
	covered: Uint8Array,
	label: number,
	from: [number, number],
	pending: Set<number>,
	cellPx: number,
	maxLengthPx: number,
	gaps?: Uint8Array,
): number | null {
	const { width, height, ids } = map;
	const open = hiddenTest(map, covered, label, gaps);
	const grid = new CellGrid(width, height, cellPx);
	const { cols } = grid;
	/** The lowest-numbered pending piece with a pixel in the cell, or -1. */
	const pendingIn = (c: number): number => {
		const x1 = min(width, ceil(((c % cols) + 1) * cellPx));
		const y1 = min(height, ceil((floor(c / cols) + 1) * cellPx));
		let found = -1;
		for (let y = floor(floor(c / cols) * cellPx); y < y1; y++) {
			for (let x = floor((c % cols) * cellPx); x < x1; x++) {
				const id = ids[y * width + x];
				if (pending.has(id) && (found < 0 || id < found)) found = id;
			}
		}
		return found;
	};
	let found: number | null = null;
	spreadFrom(grid, open, grid.cellOf(from), maxLengthPx, (c) => {
		const piece = pendingIn(c);
		if (piece >= 0) found = piece;
		return piece >= 0;
	});
	return found;
}

/**
 * Searches the route grid outwards from cell `start` (Dijkstra, eight neighbours) over the cells
 * `open` allows, up to `maxLengthPx` and `maxVisitedCells`, until `stop` says so of a cell taken
 * from the queue. Each cell reached keeps its length in the shared search arrays, under the
 * stamp returned, until the next search starts.
 */
function spreadFrom(
	grid: CellGrid,
	open: (x: number, y: number) => boolean,
	start: number,
	maxLengthPx: number,
	stop: (c: number, length: number) => boolean = () => false,
): ReturnType<typeof searchGrid> {
	const search = searchGrid(grid.size);
	const { cost, seen, stamp } = search;
	seen[start] = stamp;
	cost[start] = 0;
	const heap = new MinHeap();
	heap.push(start, 0);
	let visited = 0;
	while (heap.size && visited < maxVisitedCells) {
		const c = heap.pop();
		visited++;
		if (stop(c, cost[c])) break;
		const count = grid.neighbours(c);
		for (let k = 0; k < count; k++) {
			const n = grid.next[k];
			const next = cost[c] + grid.step[k];
			if (next > maxLengthPx || (seen[n] === stamp && cost[n] <= next)) continue;
			if (!open(grid.x(n), grid.y(n))) continue;
			seen[n] = stamp;
			cost[n] = next;
			heap.push(n, next);
		}
	}
	return search;
}

/**
 * How long a hidden travel run from `from` is to the nearest of `goals` and to every goal as near as
 * it, searched outwards on the route grid (Dijkstra) as `hiddenRoute` searches, up to `maxLengthPx`.
 * A goal whose own cell is not hidden ground counts when a cell around it is reached (a row end may
 * sit on an edge). The search stops a diagonal step past the first cell that holds or touches a goal,
 * so every goal within that reach is measured as a full search would measure it; the lengths it gives
 * of goals further on are too long or Infinity. Infinity where no run is found. Valid until the next
 * search starts.
 */
export function routeLengths(
	map: RegionMap,
	covered: Uint8Array,
	label: number,
	from: [number, number],
	goals: Array<[number, number]>,
	cellPx: number,
	maxLengthPx: number,
	gaps?: Uint8Array,
): (x: number, y: number) => number {
	const grid = new CellGrid(map.width, map.height, cellPx);
	const near = new Set<number>();
	for (const goal of goals) {
		const c = grid.cellOf(goal);
		near.add(c);
		const count = grid.neighbours(c);
		for (let k = 0; k < count; k++) near.add(grid.next[k]);
	}
	const open = hiddenTest(map, covered, label, gaps);
	let bound = Infinity;
	const { cost, seen, stamp } = spreadFrom(
		grid,
		open,
		grid.cellOf(from),
		maxLengthPx,
		(c, length) => {
			if (length > bound) return true;
			if (bound === Infinity && near.has(c)) bound = length + 1.5 * cellPx;
			return false;
		},
	);
	const reached = (c: number) => (seen[c] === stamp && cost[c] <= bound ? cost[c] : Infinity);
	return (x, y) => {
		const c = grid.cellOf([x, y]);
		let best = reached(c);
		if (best < Infinity) return best;
		const count = grid.neighbours(c);
		for (let k = 0; k < count; k++) best = min(best, reached(grid.next[k]) + grid.step[k]);
		return best <= maxLengthPx ? best : Infinity;
	};
}

/**
 * Which places a hidden travel run of one thread can connect: the cells of the route grid whose
 * centre is hidden ground (see `hiddenRoute`) or a narrow gap it may cross, split into groups
 * joined by eight-neighbour steps. Made when a thread's block starts. Sewing the block only
 * closes cells (its top stitching may spill onto a neighbour), never opens one, so two places
 * in different groups stay apart: the route search is skipped for them, and the pieces of the
 * needle's group are sewn before it jumps away, so a thread is trimmed only between groups no
 * hidden run connects.
 */
export class TravelGroups {
	private readonly grid: CellGrid;
	/** Group of each cell, -1 where the cell is not hidden ground. */
	private readonly group: Int32Array;
	/** The groups of the cells each region of the thread has pixels in. */
	private readonly touched = new Map<number, number[]>();

	constructor(
		map: RegionMap,
		covered: Uint8Array,
		label: number,
		private readonly cellPx: number,
		/** Narrow bare gaps the thread may cross (see `narrowGaps`). */
		readonly gaps?: Uint8Array,
	) {
		const open = hiddenTest(map, covered, label, gaps);
		const grid = new CellGrid(map.width, map.height, cellPx);
		this.grid = grid;
		const { cols } = grid;
		const group = new Int32Array(grid.size).fill(-2);
		const stack = new Int32Array(grid.size);
		let groups = 0;
		for (let c = 0; c < group.length; c++) {
			if (group[c] !== -2) continue;
			if (!open(grid.x(c), grid.y(c))) {
				group[c] = -1;
				continue;
			}
			const id = groups++;
			group[c] = id;
			let top = 0;
			stack[top++] = c;
			while (top > 0) {
				const count = grid.neighbours(stack[--top]);
				for (let k = 0; k < count; k++) {
					const n = grid.next[k];
					if (group[n] !== -2) continue;
					if (!open(grid.x(n), grid.y(n))) {
						group[n] = -1;
						continue;
					}
					group[n] = id;
					stack[top++] = n;
				}
			}
		}
		this.group = group;
		const { ids, regions, width } = map;
		const box = threadBox(map, label);
		if (!box) return;
		const [x0, y0, x1, y1] = box;
		for (let y = y0; y <= y1; y++) {
			const row = floor(y / cellPx) * cols;
			for (let x = x0; x <= x1; x++) {
				const id = ids[y * width + x];
				if (regions[id].label !== label) continue;
				const g = group[row + floor(x / cellPx)];
				if (g < 0) continue;
				const list = this.touched.get(id);
				if (!list) this.touched.set(id, [g]);
				else if (!list.includes(g)) list.push(g);
			}
		}
	}

	/** The groups of the cells at and around a point (a needle hole may sit on an edge). */
	private around([x, y]: [number, number]): number[] {
		const { cellPx, group } = this;
		const { cols, rows } = this.grid;
		const cx = floor(x / cellPx);
		const cy = floor(y / cellPx);
		const found: number[] = [];
		for (let dy = -1; dy <= 1; dy++) {
			for (let dx = -1; dx <= 1; dx++) {
				const nx = cx + dx;
				const ny = cy + dy;
				if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
				const g = group[ny * cols + nx];
				if (g >= 0 && !found.includes(g)) found.push(g);
			}
		}
		return found;
	}

	/** False when no hidden run can join the two points. */
	connected(a: [number, number], b: [number, number]): boolean {
		const near = this.around(a);
		return this.around(b).some((g) => near.includes(g));
	}

	/** True when a hidden run from the point can reach the region (a cell it has pixels in). */
	reaches(from: [number, number], regionId: number): boolean {
		const near = this.around(from);
		return near.length > 0 && (this.touched.get(regionId) ?? []).some((g) => near.includes(g));
	}
}

/**
 * The route grid over a map: cells `cellPx` wide, numbered row by row from the top left. The searches and
 * the groups above step from a cell to the eight around it; `neighbours` writes those into `next` (and each
 * step's length into `step`) instead of making an array per cell.
 */
class CellGrid {
	readonly cols: number;
	readonly rows: number;
	readonly size: number;
	readonly next = new Int32Array(8);
	readonly step = new Float64Array(8);

	constructor(
		width: number,
		height: number,
		private readonly cellPx: number,
	) {
		this.cols = ceil(width / cellPx);
		this.rows = ceil(height / cellPx);
		this.size = this.cols * this.rows;
	}

	/** The cell holding a point; a point off the grid takes the nearest cell. */
	cellOf([x, y]: [number, number]): number {
		const { cols, rows, cellPx } = this;
		return (
			min(rows - 1, max(0, floor(y / cellPx))) * cols + min(cols - 1, max(0, floor(x / cellPx)))
		);
	}

	/** The x of a cell's centre, in pixels. */
	x(c: number): number {
		return ((c % this.cols) + 0.5) * this.cellPx;
	}

	/** The y of a cell's centre, in pixels. */
	y(c: number): number {
		return (floor(c / this.cols) + 0.5) * this.cellPx;
	}

	/** Writes the cells around `c` (eight, fewer at the grid's edge) into `next`, row by row; returns how many. */
	neighbours(c: number): number {
		const { cols, rows, cellPx } = this;
		const cx = c % cols;
		const cy = floor(c / cols);
		let count = 0;
		for (let dy = -1; dy <= 1; dy++) {
			for (let dx = -1; dx <= 1; dx++) {
				if (!dx && !dy) continue;
				const nx = cx + dx;
				const ny = cy + dy;
				if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
				this.next[count] = ny * cols + nx;
				this.step[count] = (dx && dy ? 1.4142 : 1) * cellPx;
				count++;
			}
		}
		return count;
	}
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

/**
 * True when every half pixel of the line between a and b (less its very ends, and less the first
 * `graceA` and last `graceB` pixels) is open.
 */
function clear(
	[ax, ay]: [number, number],
	[bx, by]: [number, number],
	open: (x: number, y: number) => boolean,
	graceA = 0,
	graceB = 0,
): boolean {
	const length = hypot(bx - ax, by - ay);
	const steps = max(1, ceil(length / 0.5));
	for (let s = 1; s < steps; s++) {
		const along = (length * s) / steps;
		if (along < graceA || length - along < graceB) continue;
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
		// Plain temporaries: a destructuring swap builds two arrays per step of every search.
		const { items, keys } = this;
		const item = items[a];
		items[a] = items[b];
		items[b] = item;
		const key = keys[a];
		keys[a] = keys[b];
		keys[b] = key;
	}
}
