import { abs, hypot, max, sqrt } from './math';
import type { RegionMap } from './regions';

/** A closed outline in working-pixel coordinates. */
export type Loop = Array<[number, number]>;

/**
 * Segments for each marching-squares case, as pairs of cell edges
 * (0 top, 1 right, 2 bottom, 3 left); corners are top-left 1, top-right 2, bottom-right 4, bottom-left 8.
 */
const segmentsByCase: number[][] = [
	[],
	[3, 0],
	[0, 1],
	[3, 1],
	[1, 2],
	[3, 0, 1, 2],
	[0, 2],
	[3, 2],
	[2, 3],
	[0, 2],
	[0, 1, 2, 3],
	[1, 2],
	[3, 1],
	[0, 1],
	[3, 0],
	[],
];

/**
 * Traces every outline (outer edge and holes) of the part of a region lying at least
 * `insetPx` inside its edge, by marching squares over pixel centres.
 */
export function traceContours(map: RegionMap, regionId: number, insetPx: number): Loop[] {
	const region = map.regions[regionId];
	const { width, ids, inset } = map;
	const x0 = region.minX - 1;
	const y0 = region.minY - 1;
	const cols = region.maxX - region.minX + 3;
	const rows = region.maxY - region.minY + 3;
	// Grid point (gx, gy) is pixel (gx + x0, gy + y0); the box's one-pixel margin is never inside.
	const inside = new Uint8Array(cols * rows);
	for (let y = region.minY; y <= region.maxY; y++) {
		for (let x = region.minX; x <= region.maxX; x++) {
			const i = y * width + x;
			if (ids[i] === regionId && inset[i] >= insetPx) inside[(y - y0) * cols + x - x0] = 1;
		}
	}
	// Edge ids: horizontal edge right of grid point (gx, gy) is 2k, vertical edge below it 2k + 1.
	const edgeId = (gx: number, gy: number, edge: number) => {
		if (edge === 0) return (gy * cols + gx) * 2;
		if (edge === 2) return ((gy + 1) * cols + gx) * 2;
		if (edge === 3) return (gy * cols + gx) * 2 + 1;
		return (gy * cols + gx + 1) * 2 + 1;
	};
	const links = new Map<number, number[]>();
	const link = (a: number, b: number) => {
		const fromA = links.get(a);
		if (fromA) fromA.push(b);
		else links.set(a, [b]);
		const fromB = links.get(b);
		if (fromB) fromB.push(a);
		else links.set(b, [a]);
	};
	for (let gy = 0; gy < rows - 1; gy++) {
		for (let gx = 0; gx < cols - 1; gx++) {
			const k = gy * cols + gx;
			const index =
				inside[k] | (inside[k + 1] << 1) | (inside[k + cols + 1] << 2) | (inside[k + cols] << 3);
			// Wholly inside or outside: no edge crosses the cell.
			if (index === 0 || index === 15) continue;
			const segments = segmentsByCase[index];
			for (let s = 0; s < segments.length; s += 2)
				link(edgeId(gx, gy, segments[s]), edgeId(gx, gy, segments[s + 1]));
		}
	}
	const point = (id: number): [number, number] => {
		const k = id >> 1;
		const gx = k % cols;
		const gy = (k - gx) / cols;
		// Sample points sit at pixel centres; an edge's midpoint lies halfway between two of them.
		return id & 1 ? [gx + x0 + 0.5, gy + y0 + 1] : [gx + x0 + 1, gy + y0 + 0.5];
	};
	const loops: Loop[] = [];
	const visited = new Set<number>();
	for (const start of links.keys()) {
		if (visited.has(start)) continue;
		const loop: Loop = [];
		let previous = -1;
		let current = start;
		while (!visited.has(current)) {
			visited.add(current);
			loop.push(point(current));
			const next = (links.get(current) ?? []).find(
				(candidate) => candidate !== previous && !visited.has(candidate),
			);
			if (next === undefined) break;
			previous = current;
			current = next;
		}
		if (loop.length >= 4) loops.push(loop);
	}
	return loops;
}

/**
 * Needle holes along a closed loop, `stepPx` apart as the thread runs (straight from hole to hole,
 * so a pixel outline's steps do not shorten the stitches), starting at `start` and ending back
 * there; where the loop bends away from the straight stitch by more than `bendPx`, a hole goes at
 * the bend, so a tight curve gets the shorter stitches it needs. A last stitch under half a step
 * is merged into the one before.
 */
export function walkLoop(loop: Loop, start: number, stepPx: number, bendPx = Infinity): Loop {
	const n = loop.length;
	const points: Loop = [loop[start]];
	let [lx, ly] = loop[start];
	/** The first loop vertex after the last hole. */
	let since = 1;
	/** True when the last hole is at a bend, which the closing stitch must not cut across. */
	let atBend = false;
	for (let k = 1; k <= n; k++) {
		let [ax, ay] = loop[(start + k - 1) % n];
		const [bx, by] = loop[(start + k) % n];
		if (k > since && strays(loop, start, since, k - 1, [lx, ly], [bx, by], bendPx)) {
			[lx, ly] = [ax, ay];
			points.push([lx, ly]);
			since = k;
			atBend = true;
		}
		// Each hole on this edge is where the thread from the last hole reaches a full step.
		while (hypot(bx - lx, by - ly) >= stepPx) {
			const dx = bx - ax;
			const dy = by - ay;
			const fx = ax - lx;
			const fy = ay - ly;
			const a = dx * dx + dy * dy;
			const b = 2 * (fx * dx + fy * dy);
			const c = fx * fx + fy * fy - stepPx * stepPx;
			const t = (-b + sqrt(max(0, b * b - 4 * a * c))) / (2 * a);
			lx = ax + dx * t;
			ly = ay + dy * t;
			points.push([lx, ly]);
			ax = lx;
			ay = ly;
			since = k;
			atBend = false;
		}
	}
	const [sx, sy] = loop[start];
	const rest = hypot(lx - sx, ly - sy);
	if (rest > 1e-6) {
		if (rest < stepPx / 2 && points.length > 2 && !atBend) points[points.length - 1] = loop[start];
		else points.push(loop[start]);
	}
	return points;
}

/** True when a loop vertex from `first` to `last` (counted from `start`) lies over `bendPx` off the stitch a-b. */
function strays(
	loop: Loop,
	start: number,
	first: number,
	last: number,
	[ax, ay]: [number, number],
	[bx, by]: [number, number],
	bendPx: number,
): boolean {
	if (bendPx === Infinity) return false;
	const dx = bx - ax;
	const dy = by - ay;
	const length = hypot(dx, dy);
	for (let k = first; k <= last; k++) {
		const [x, y] = loop[(start + k) % loop.length];
		const off = length > 1e-9 ? abs((x - ax) * dy - (y - ay) * dx) / length : hypot(x - ax, y - ay);
		if (off > bendPx) return true;
	}
	return false;
}
