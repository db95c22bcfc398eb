import type { SourceRaster } from './artwork';
import type { Needle } from './needle';
import { abs, atan2, ceil, cos, floor, hypot, max, min, round, sin, sqrt } from './math';
import { background, type RegionMap } from './regions';
import type { Point } from './skeleton';

/**
 * An area of flat artwork drawn as a fine mix of two exact colours: one in parallel stripes about a
 * thread or two wide, the other showing in the narrow gaps between them (a professional's open
 * rows over a fill of another colour, drawn stitch by stitch). On the working grid the gaps are a
 * pixel or none, so the area reads as the striped colour; it is sewn as a fill of the showing
 * colour under the whole area, then a running stitch along each thread's width of every stripe,
 * found at the source's own resolution.
 */
export interface StripedArea {
	regionId: number;
	/** Thread showing between the stripes: the area's fill, sewn first. */
	under: number;
	/** Thread of the stripes: sewn as running stitch over the fill. */
	over: number;
	/** Centre line of each thread's width of stripe, in working pixels. */
	lines: Point[][];
	/** Unit vector across the stripes, in working pixels. */
	across: Point;
}

/** Smallest area the rule looks at: a texture, not an edge. */
export const minStripedAreaMm2 = 4;
/** Least share of the working grid's pixels the showing colour keeps in an area worth a look. */
const minShowingShareOnGrid = 0.02;
/** Share of the source's pixels the showing colour takes among the two colours. */
const minShowingShare = 0.1;
const maxShowingShare = 0.5;
/** Least share of the area's source pixels in one of the two colours. */
const minTwoColourShare = 0.9;
/** How parallel the stripes must be: coherence of the edge directions (1 all parallel, 0 none). */
const minCoherence = 0.5;
/** Widest gap between stripes (median) that still reads as a mix, not two shapes. */
const maxGapMm = 0.35;
/** Widest stripe (median): two threads side by side. */
const maxStripeMm = 1;
/** A thread's width: the width of stripe one running stitch covers. */
export const threadWidthMm = 0.4;
/** Distance between the lines across the stripes that measure them. */
const scanStepMm = 0.2;
/** Samples along each such line, per source pixel. */
const samplesPerPixel = 4;
/** Furthest a stripe's centre moves from one measuring line to the next and is still the same stripe. */
const maxDriftMm = 0.25;
/** Least share of the striped colour the traced lines cover, or the area keeps its plain fill. */
const minTracedShare = 0.8;
/** How far a sewn line may cut a curve of the stripe's centre. */
const lineToleranceMm = 0.03;

/**
 * Regions worth tracing: a non-background area of at least `minAreaPx` whose pixels before cleanup
 * held another thread in more than a sliver (`before`, the labels before the majority vote and the
 * removal of hairlines). Returns region id -> that most common other thread.
 */
export function stripeCandidates(
	map: RegionMap,
	before: Uint8Array,
	minAreaPx: number,
	threadCount: number,
): Map<number, number> {
	const counts = new Map<number, Uint32Array>();
	for (const region of map.regions) {
		if (region.label !== background && region.area >= minAreaPx && !region.stroke)
			counts.set(region.id, new Uint32Array(threadCount));
	}
	if (counts.size === 0) return new Map();
	for (let i = 0; i < before.length; i++) {
		const tally = counts.get(map.ids[i]);
		if (tally && before[i] !== background) tally[before[i]]++;
	}
	const found = new Map<number, number>();
	for (const [id, tally] of counts) {
		const own = map.regions[id].label;
		let best = -1;
		for (let label = 0; label < threadCount; label++) {
			if (label !== own && (best < 0 || tally[label] > tally[best])) best = label;
		}
		if (best >= 0 && tally[best] >= minShowingShareOnGrid * map.regions[id].area)
			found.set(id, best);
	}
	return found;
}

/** Thread of every exact colour of the working grid (the one most of its pixels got). */
export function threadOfColour(rgba: Uint8Array, labels: Uint8Array): Map<number, number> {
	const votes = new Map<number, Map<number, number>>();
	for (let i = 0; i < labels.length; i++) {
		const colour = colourKey(rgba, i * 4);
		let tally = votes.get(colour);
		if (!tally) votes.set(colour, (tally = new Map()));
		tally.set(labels[i], (tally.get(labels[i]) ?? 0) + 1);
	}
	const threads = new Map<number, number>();
	for (const [colour, tally] of votes) {
		let best = background;
		let most = -1;
		for (const [label, count] of tally) {
			if (count > most || (count === most && label < best)) [best, most] = [label, count];
		}
		threads.set(colour, best);
	}
	return threads;
}

function colourKey(rgba: Uint8Array, o: number): number {
	// Fully transparent pixels are one colour whatever their RGB.
	return rgba[o + 3] === 0
		? -1
		: rgba[o] * 16777216 + rgba[o + 1] * 65536 + rgba[o + 2] * 256 + rgba[o + 3];
}

/** Pixel classes of the source within one region. */
const outside = 0;
const striped = 1;
const showing = 2;
const otherColour = 3;

/**
 * Traces the stripes of a candidate region at the source's resolution: null when the region is
 * not a fine two-colour stripe texture (shares, parallelism, widths), else its striped area.
 */
export function traceStripes(
	source: SourceRaster,
	map: RegionMap,
	regionId: number,
	under: number,
	threads: Map<number, number>,
	pixelMm: number,
): StripedArea | null {
	const region = map.regions[regionId];
	const over = region.label;
	const { scaleX, scaleY } = source;
	const sourceMm = pixelMm * sqrt(scaleX * scaleY);
	const x0 = max(0, floor(region.minX / scaleX));
	const y0 = max(0, floor(region.minY / scaleY));
	const x1 = min(source.width, ceil((region.maxX + 1) / scaleX));
	const y1 = min(source.height, ceil((region.maxY + 1) / scaleY));
	const w = x1 - x0;
	const h = y1 - y0;
	if (w < 3 || h < 3) return null;
	const classes = new Uint8Array(w * h);
	let stripedCount = 0;
	let showingCount = 0;
	let otherCount = 0;
	for (let y = y0; y < y1; y++) {
		const wy = floor((y + 0.5) * scaleY);
		for (let x = x0; x < x1; x++) {
			const wx = floor((x + 0.5) * scaleX);
			if (wx >= map.width || wy >= map.height || map.ids[wy * map.width + wx] !== regionId)
				continue;
			const thread = threads.get(colourKey(source.rgba, (y * source.width + x) * 4));
			const kind = thread === over ? striped : thread === under ? showing : otherColour;
			classes[(y - y0) * w + (x - x0)] = kind;
			if (kind === striped) stripedCount++;
			else if (kind === showing) showingCount++;
			else otherCount++;
		}
	}
	const pair = stripedCount + showingCount;
	if (pair < minTwoColourShare * (pair + otherCount)) return null;
	const share = showingCount / pair;
	if (share < minShowingShare || share > maxShowingShare) return null;

	const direction = stripeNormal(classes, w, h);
	if (!direction || direction.coherence < minCoherence) return null;
	const gx = cos(direction.angle);
	const gy = sin(direction.angle);
	// Along the stripes: (-gy, gx). Every point is (cx, cy) + t * along + s * across.
	const cx = w / 2;
	const cy = h / 2;
	const reach = hypot(w, h) / 2 + 1;
	const scanStep = scanStepMm / sourceMm;
	const sample = 1 / samplesPerPixel;
	const classAt = (t: number, s: number): number => {
		const x = floor(cx - gy * t + gx * s);
		const y = floor(cy + gx * t + gy * s);
		return x < 0 || y < 0 || x >= w || y >= h ? outside : classes[y * w + x];
	};

	const threadPx = threadWidthMm / sourceMm;
	const stripeWidths: number[] = [];
	const gapWidths: number[] = [];
	/** Centres across (s) of each thread's width, per measuring line. */
	const scans: { t: number; centres: number[]; widths: number[] }[] = [];
	for (let t = -reach; t <= reach; t += scanStep) {
		const centres: number[] = [];
		const widths: number[] = [];
		let previous = outside;
		let runStart = 0;
		let gapStart = Number.NaN;
		for (let s = -reach; s <= reach + sample; s += sample) {
			const kind = s > reach ? outside : classAt(t, s);
			if (kind === previous) continue;
			// The edge lies between this sample and the last.
			const edge = s - sample / 2;
			if (previous === striped) {
				const width = edge - runStart;
				stripeWidths.push(width);
				const threadsAcross = max(1, round(width / threadPx));
				for (let k = 0; k < threadsAcross; k++) {
					centres.push(runStart + ((k + 0.5) * width) / threadsAcross);
					widths.push(width / threadsAcross);
				}
				if (kind === showing) gapStart = edge;
			} else if (previous === showing && kind === striped && !Number.isNaN(gapStart)) {
				gapWidths.push(edge - gapStart);
			}
			if (kind === striped) runStart = edge;
			if (kind !== showing) gapStart = Number.NaN;
			previous = kind;
		}
		if (centres.length) scans.push({ t, centres, widths });
	}
	if (median(gapWidths) * sourceMm > maxGapMm) return null;
	if (median(stripeWidths) * sourceMm > maxStripeMm) return null;

	const chains = chainCentres(scans, scanStep, maxDriftMm / sourceMm);
	let traced = 0;
	const lines: Point[][] = [];
	for (const chain of chains) {
		if (chain.length < 2) continue;
		for (const [, , width] of chain) traced += width * scanStep;
		// A stripe ends between its last measuring line and the next: half a step on.
		const ends = [chain[0], chain[chain.length - 1]];
		const points: [number, number][] = chain.map(([t, s]) => [t, s]);
		points[0] = [ends[0][0] - scanStep / 2, ends[0][1]];
		points[points.length - 1] = [ends[1][0] + scanStep / 2, ends[1][1]];
		const line = simplify(points, lineToleranceMm / sourceMm).map(
			([t, s]): Point => [
				(x0 + cx - gy * t + gx * s) * scaleX,
				(y0 + cy + gx * t + gy * s) * scaleY,
			],
		);
		lines.push(line);
	}
	if (traced < minTracedShare * stripedCount) return null;
	const across = normalised(gx * scaleX, gy * scaleY);
	return { regionId, under, over, lines, across };
}

/** Longest straight stitch from one stripe's end to the next one's start (a row's turn). */
const turnMm = 1;
/** Longest stitch along a stripe. */
const stripeStitchMm = 2;

/**
 * Sews the stripes of one thread's striped areas: each area's lines in order across it, each
 * from its end nearer the needle, a short turn stitched, a longer move travelled as a jump.
 */
export function sewStripes(needle: Needle, areas: StripedArea[]): void {
	const pending = new Set(areas);
	while (pending.size) {
		let area = areas[0];
		let nearest = Infinity;
		for (const candidate of pending) {
			const d = nearestEnd(candidate.lines, needle.position);
			if (d < nearest) [area, nearest] = [candidate, d];
		}
		pending.delete(area);
		const [ax, ay] = area.across;
		const order = area.lines
			.map((line) => {
				const [x, y] = line[floor(line.length / 2)];
				return { line, at: x * ax + y * ay };
			})
			.sort((a, b) => a.at - b.at);
		// Start from the side nearer the needle.
		const first = order[0].line[0];
		const last = order[order.length - 1].line[0];
		const [nx, ny] = needle.position;
		if (hypot(last[0] - nx, last[1] - ny) < hypot(first[0] - nx, first[1] - ny)) order.reverse();
		for (const { line } of order) {
			const [px, py] = needle.position;
			const head = line[0];
			const tail = line[line.length - 1];
			const path =
				hypot(tail[0] - px, tail[1] - py) < hypot(head[0] - px, head[1] - py)
					? [...line].reverse()
					: line;
			const [sx, sy] = path[0];
			if (needle.anchored && hypot(sx - px, sy - py) <= needle.px(turnMm)) needle.stitchTo(sx, sy);
			else needle.travelTo(sx, sy, false);
			for (let k = 1; k < path.length; k++) needle.stitchTo(path[k][0], path[k][1], stripeStitchMm);
		}
	}
}

function nearestEnd(lines: Point[][], [x, y]: [number, number]): number {
	let best = Infinity;
	for (const line of lines) {
		for (const [px, py] of [line[0], line[line.length - 1]])
			best = min(best, hypot(px - x, py - y));
	}
	return best;
}

function normalised(x: number, y: number): Point {
	const length = hypot(x, y);
	return length === 0 ? [1, 0] : [x / length, y / length];
}

/**
 * Direction across the stripes (the angle of the edges' normal), from the structure tensor of the
 * striped colour's edges within the region, with how much the edges agree on it.
 */
function stripeNormal(
	classes: Uint8Array,
	w: number,
	h: number,
): { angle: number; coherence: number } | null {
	let xx = 0;
	let xy = 0;
	let yy = 0;
	const on = (i: number) => (classes[i] === striped ? 1 : 0);
	const mixed = (i: number) => classes[i] === striped || classes[i] === showing;
	for (let y = 1; y < h - 1; y++) {
		for (let x = 1; x < w - 1; x++) {
			const i = y * w + x;
			if (!mixed(i) || !mixed(i - 1) || !mixed(i + 1) || !mixed(i - w) || !mixed(i + w)) continue;
			const dx = on(i + 1) - on(i - 1);
			const dy = on(i + w) - on(i - w);
			xx += dx * dx;
			xy += dx * dy;
			yy += dy * dy;
		}
	}
	const total = xx + yy;
	if (total === 0) return null;
	return {
		angle: atan2(2 * xy, xx - yy) / 2,
		coherence: sqrt((xx - yy) * (xx - yy) + 4 * xy * xy) / total,
	};
}

/**
 * Links the thread centres of successive measuring lines into lines along the stripes: nearest
 * pairs first, each centre to at most one line, within `maxDrift` across.
 */
function chainCentres(
	scans: { t: number; centres: number[]; widths: number[] }[],
	scanStep: number,
	maxDrift: number,
): [number, number, number][][] {
	const done: [number, number, number][][] = [];
	let open: [number, number, number][][] = [];
	for (const { t, centres, widths } of scans) {
		const pairs: [number, number, number][] = [];
		for (let c = 0; c < open.length; c++) {
			const last = open[c][open[c].length - 1];
			if (t - last[0] > scanStep * 1.5) continue;
			for (let k = 0; k < centres.length; k++) {
				const drift = abs(centres[k] - last[1]);
				if (drift <= maxDrift) pairs.push([drift, c, k]);
			}
		}
		pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
		const chainTaken = new Uint8Array(open.length);
		const centreTaken = new Uint8Array(centres.length);
		const next: [number, number, number][][] = [];
		for (const [, c, k] of pairs) {
			if (chainTaken[c] || centreTaken[k]) continue;
			chainTaken[c] = 1;
			centreTaken[k] = 1;
			open[c].push([t, centres[k], widths[k]]);
			next.push(open[c]);
		}
		for (let c = 0; c < open.length; c++) if (!chainTaken[c]) done.push(open[c]);
		for (let k = 0; k < centres.length; k++) {
			if (!centreTaken[k]) next.push([[t, centres[k], widths[k]]]);
		}
		open = next;
	}
	return done.concat(open);
}

/** Douglas-Peucker: drops points within `tolerance` of the line through their neighbours kept. */
function simplify(points: [number, number][], tolerance: number): [number, number][] {
	if (points.length <= 2) return points;
	const keep = new Uint8Array(points.length);
	keep[0] = 1;
	keep[points.length - 1] = 1;
	const stack: [number, number][] = [[0, points.length - 1]];
	while (stack.length) {
		const [a, b] = stack.pop()!;
		const [ax, ay] = points[a];
		const [bx, by] = points[b];
		const length = hypot(bx - ax, by - ay);
		let worst = -1;
		let worstDistance = tolerance;
		for (let i = a + 1; i < b; i++) {
			const [px, py] = points[i];
			const distance =
				length === 0
					? hypot(px - ax, py - ay)
					: abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length;
			if (distance > worstDistance) {
				worst = i;
				worstDistance = distance;
			}
		}
		if (worst >= 0) {
			keep[worst] = 1;
			stack.push([a, worst], [worst, b]);
		}
	}
	return points.filter((_, i) => keep[i]);
}

function median(values: number[]): number {
	if (values.length === 0) return Infinity;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[floor(sorted.length / 2)];
}
