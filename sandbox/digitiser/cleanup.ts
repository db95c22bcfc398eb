import { background, findRegions, type RegionMap } from './regions';

export interface CleanupLimits {
	/** Areas smaller than this (pixels) are too small to sew. */
	minAreaPx: number;
	/** Areas narrower than this everywhere (pixels) are thinner than a stitch can hold. */
	minWidthPx: number;
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
	for (let pass = 0; pass < 3; pass++) {
		const small = map.regions.filter((region) =>
			region.label === background
				? !region.touchesBorder && region.area < limits.minAreaPx
				: region.area < limits.minAreaPx || region.widthPx < limits.minWidthPx,
		);
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
		relabel(map, labels, replacement);
		map = findRegions(labels, width, height);
	}
	return { map, droppedDetails, droppedAreaPx, filledHoles };
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
