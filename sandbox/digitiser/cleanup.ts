import { ceil, max, min } from './math';
import { background, findRegions, type Region, type RegionMap } from './regions';

export interface CleanupLimits {
	/** Areas smaller than this (pixels) are too small to sew. */
	minAreaPx: number;
	/** Areas narrower than this everywhere (pixels) are thinner than a stitch can hold. */
	minWidthPx: number;
	/**
	 * Lines up to this wide (pixels) are sewn as running stitch: a small hole ringed by such lines
	 * is a mesh's opening (a net, a lattice, a cross-hatch), not a pinhole, and stays open.
	 */
	lineWidthPx?: number;
}

export interface CleanupResult {
	map: RegionMap;
	droppedDetails: number;
	droppedAreaPx: number;
	filledHoles: number;
}

/**
 * Smooths ragged edges (a 3x3 majority vote, the multi-colour form of a morphological
 * open and close), then gives every speck, hairline and pinhole to its strongest neighbour.
 */
export function removeUnsewableDetail(
	labels: Uint8Array,
	width: number,
	height: number,
	limits: CleanupLimits,
): CleanupResult {
	majorityFilter(labels, width, height);
	let droppedDetails = 0;
	let droppedAreaPx = 0;
	let filledHoles = 0;
	let map = findRegions(labels, width, height);
	const keptHoles = new Uint8Array(width * height);
	for (let pass = 0; pass < 3; pass++) {
		const small = map.regions.filter((region) => {
			if (region.label === background) {
				if (region.touchesBorder || region.area >= limits.minAreaPx) return false;
				// Judged on the artwork as drawn: filling one opening must not thicken the next one's ring.
				if (pass === 0 && ringedByLines(map, labels, region, limits.lineWidthPx ?? 0))
					mark(map, region, keptHoles);
				return !marked(map, region, keptHoles);
			}
			return region.area < limits.minAreaPx || region.widthPx < limits.minWidthPx;
		});
		if (small.length === 0) break;
		const replacement = strongestNeighbours(map, labels, new Set(small.map((region) => region.id)));
		for (const region of small) {
			const choice = replacement.get(region.id);
			if (!choice) continue;
			// A sliver between two areas is anti-aliasing, not a detail the user would miss.
			const fringe = region.widthPx <= 2 && choice.neighbourLabels >= 2;
			if (region.label === background) filledHoles++;
			else if (!fringe) {
				droppedDetails++;
				droppedAreaPx += region.area;
			}
		}
		if (replacement.size === 0) break;
		relabel(map, labels, replacement);
		map = findRegions(labels, width, height);
	}
	return { map, droppedDetails, droppedAreaPx, filledHoles };
}

/** Marks a region's pixels. */
function mark(map: RegionMap, region: Region, marks: Uint8Array): void {
	const { width, ids } = map;
	for (let y = region.minY; y <= region.maxY; y++) {
		for (let i = y * width + region.minX; i <= y * width + region.maxX; i++)
			if (ids[i] === region.id) marks[i] = 1;
	}
}

/** True when any of a region's pixels is marked. */
function marked(map: RegionMap, region: Region, marks: Uint8Array): boolean {
	const { width, ids } = map;
	for (let y = region.minY; y <= region.maxY; y++) {
		for (let i = y * width + region.minX; i <= y * width + region.maxX; i++)
			if (ids[i] === region.id && marks[i]) return true;
	}
	return false;
}

/**
 * True when the hole's ring is lines no wider than `lineWidthPx`: near the hole, no pixel of the
 * colour that borders it most lies deeper from an edge than the middle of two such lines
 * crossing. Around a pinhole in a solid area the depth grows with the distance from the hole, so
 * the test fails there; in a net of lines it stays at about half their width, junctions included.
 */
function ringedByLines(
	map: RegionMap,
	labels: Uint8Array,
	hole: Region,
	lineWidthPx: number,
): boolean {
	if (lineWidthPx <= 0) return false;
	const { width, height, ids, inset } = map;
	const tally = new Map<number, number>();
	for (let y = hole.minY; y <= hole.maxY; y++) {
		for (let x = hole.minX; x <= hole.maxX; x++) {
			const i = y * width + x;
			if (ids[i] !== hole.id) continue;
			for (const j of [i - 1, i + 1, i - width, i + width]) {
				const label = labels[j];
				if (ids[j] !== hole.id && label !== background)
					tally.set(label, (tally.get(label) ?? 0) + 1);
			}
		}
	}
	let ring = -1;
	let most = 0;
	for (const [label, count] of tally) {
		if (count > most) {
			ring = label;
			most = count;
		}
	}
	if (ring < 0) return false;
	// Where two lines cross, the middle lies deeper than half a line: up to its half diagonal.
	const deepest = lineWidthPx * 0.75 + 1;
	// Far enough out that a solid area around a pinhole is seen to be deeper than that.
	const reach = ceil(deepest) + 2;
	for (let y = max(0, hole.minY - reach); y <= min(height - 1, hole.maxY + reach); y++) {
		for (let x = max(0, hole.minX - reach); x <= min(width - 1, hole.maxX + reach); x++) {
			const i = y * width + x;
			if (labels[i] === ring && inset[i] > deepest) return false;
		}
	}
	return true;
}

/**
 * Gives every replaced region its new label: over the replaced regions' own boxes (they are small),
 * or over the whole map when those boxes add up to more than it.
 */
function relabel(
	map: RegionMap,
	labels: Uint8Array,
	replacement: Map<number, { label: number }>,
): void {
	const { width, ids, regions } = map;
	let boxPixels = 0;
	for (const id of replacement.keys()) {
		const r = regions[id];
		boxPixels += (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1);
	}
	if (boxPixels >= labels.length) {
		const newLabel = new Int16Array(regions.length).fill(-1);
		for (const [id, choice] of replacement) newLabel[id] = choice.label;
		for (let i = 0; i < labels.length; i++) {
			const label = newLabel[ids[i]];
			if (label >= 0) labels[i] = label;
		}
		return;
	}
	for (const [id, { label }] of replacement) {
		const r = regions[id];
		for (let y = r.minY; y <= r.maxY; y++) {
			for (let i = y * width + r.minX; i <= y * width + r.maxX; i++)
				if (ids[i] === id) labels[i] = label;
		}
	}
}

function strongestNeighbours(
	map: RegionMap,
	labels: Uint8Array,
	small: Set<number>,
): Map<number, { label: number; neighbourLabels: number }> {
	const { width, height, ids } = map;
	const votes = new Map<number, Map<number, number>>();
	const vote = (id: number, neighbour: number) => {
		const label = labels[neighbour];
		if (ids[neighbour] === id) return;
		let tally = votes.get(id);
		if (!tally) votes.set(id, (tally = new Map()));
		tally.set(label, (tally.get(label) ?? 0) + 1);
	};
	const isSmall = new Uint8Array(map.regions.length);
	for (const id of small) isSmall[id] = 1;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			const id = ids[i];
			if (!isSmall[id]) continue;
			if (x > 0) vote(id, i - 1);
			if (x < width - 1) vote(id, i + 1);
			if (y > 0) vote(id, i - width);
			if (y < height - 1) vote(id, i + width);
		}
	}
	const result = new Map<number, { label: number; neighbourLabels: number }>();
	for (const [id, tally] of votes) {
		let best = background;
		let bestCount = -1;
		for (const [label, count] of tally) {
			if (count > bestCount) {
				best = label;
				bestCount = count;
			}
		}
		result.set(id, { label: best, neighbourLabels: tally.size });
	}
	return result;
}

function majorityFilter(labels: Uint8Array, width: number, height: number): void {
	const source = labels.slice();
	const counts = new Uint16Array(256);
	const seen: number[] = [];
	for (let y = 1; y < height - 1; y++) {
		for (let x = 1; x < width - 1; x++) {
			const i = y * width + x;
			const own = source[i];
			// Most pixels sit inside a flat area: nothing to vote on.
			if (
				source[i - 1] === own &&
				source[i + 1] === own &&
				source[i - width] === own &&
				source[i + width] === own &&
				source[i - width - 1] === own &&
				source[i + width + 1] === own &&
				source[i - width + 1] === own &&
				source[i + width - 1] === own
			) {
				continue;
			}
			seen.length = 0;
			for (let dy = -1; dy <= 1; dy++) {
				for (let dx = -1; dx <= 1; dx++) {
					const label = source[i + dy * width + dx];
					if (counts[label] === 0) seen.push(label);
					counts[label]++;
				}
			}
			let best = own;
			for (const label of seen) {
				if (counts[label] >= 5) best = label;
				counts[label] = 0;
			}
			labels[i] = best;
		}
	}
}
