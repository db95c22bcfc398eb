import { channelsToLab, deltaE76, type Lab } from '../engine';
import { abs, min } from './math';

/** Colours are pooled into 32 levels a channel first, so clustering cost does not grow with image size. */
const binBits = 5;
const binCount = 1 << (3 * binBits);
const maxIterations = 20;

export interface Quantised {
	/** Cluster index of every pixel; 255 for background. */
	labels: Uint8Array;
	/** Cluster centres in Lab. */
	centres: Lab[];
	/** The colour each cluster stands for: its dominant shade, not the mean muddied by blends. */
	representatives: Lab[];
	/** Pixel count of each cluster. */
	sizes: number[];
	/** Share of foreground pixels lying far (over 12 Lab units) from their cluster: detail the colour limit lost. */
	farShare: number;
}

function binOf(rgba: Uint8Array, pixel: number): number {
	const o = pixel * 4;
	return ((rgba[o] >> 3) << 10) | ((rgba[o + 1] >> 3) << 5) | (rgba[o + 2] >> 3);
}

/**
 * Reduces the foreground to at most `colourCount` colours with weighted k-means in CIE Lab.
 * Seeding is deterministic (heaviest colour first, then the colour worst served so far),
 * so the same artwork always gives the same design. A cluster under `minClusterShare` of the
 * design is folded into its neighbours unless it has `keptFlatPixels` flat pixels or more (flat
 * artwork passes the pixels of an area worth sewing: an exact colour drawn that large is one of the
 * design's colours, however small its share, where in a photograph it is a passing shade).
 */
export function quantiseColours(
	rgba: Uint8Array,
	mask: Uint8Array,
	width: number,
	colourCount: number,
	backgroundLab: Lab | null,
	keptFlatPixels = Infinity,
): Quantised {
	const size = mask.length;
	const weights = new Float64Array(binCount);
	const counts = new Float64Array(binCount);
	const sums = new Float64Array(binCount * 3);
	for (let i = 0; i < size; i++) {
		if (!mask[i]) continue;
		const bin = binOf(rgba, i);
		const w = onColourEdge(rgba, i, width, size) ? edgeWeight : 1;
		weights[bin] += w;
		counts[bin]++;
		sums[bin * 3] += rgba[i * 4] * w;
		sums[bin * 3 + 1] += rgba[i * 4 + 1] * w;
		sums[bin * 3 + 2] += rgba[i * 4 + 2] * w;
	}
	const bins: number[] = [];
	const labs: Lab[] = [];
	for (let bin = 0; bin < binCount; bin++) {
		if (!weights[bin]) continue;
		const w = weights[bin];
		bins.push(bin);
		labs.push(channelsToLab(sums[bin * 3] / w, sums[bin * 3 + 1] / w, sums[bin * 3 + 2] / w));
	}
	const binWeights = bins.map((bin) => weights[bin]);
	const k = min(colourCount, bins.length);
	let centres = seedCentres(labs, binWeights, k);
	const assignment = new Int32Array(bins.length);
	refineCentres(labs, binWeights, centres, assignment);
	// A cluster holding almost nothing but blended edge pixels is not a colour of the design.
	const shares = clusterWeights(binWeights, assignment, centres.length);
	const total = shares.reduce((sum, w) => sum + w, 0);
	const pixels = clusterWeights(
		bins.map((bin) => counts[bin]),
		assignment,
		centres.length,
	);
	const kept = centres.filter((_, c) => {
		// Flat (non-edge) pixels in the cluster: weight = flat + edgeWeight * (pixels - flat).
		const flat = (shares[c] - edgeWeight * pixels[c]) / (1 - edgeWeight);
		const large = shares[c] >= minClusterShare * total || flat >= keptFlatPixels;
		return large && flat >= minFlatShare * pixels[c];
	});
	if (kept.length > 0 && kept.length < centres.length) {
		centres = kept;
		refineCentres(labs, binWeights, centres, assignment);
	}

	const binToCluster = new Uint8Array(binCount);
	bins.forEach((bin, j) => {
		// Edge blends nearer the backdrop than any thread colour belong to the backdrop: edges split halfway.
		const toBackground = backgroundLab ? deltaE76(labs[j], backgroundLab) : Infinity;
		binToCluster[bin] =
			toBackground < deltaE76(labs[j], centres[assignment[j]]) ? 255 : assignment[j];
	});
	const sizes = centres.map(() => 0);
	let far = 0;
	let foreground = 0;
	bins.forEach((_, j) => {
		foreground += binWeights[j];
		if (deltaE76(labs[j], centres[assignment[j]]) > 12) far += binWeights[j];
	});
	const labels = new Uint8Array(size).fill(255);
	for (let i = 0; i < size; i++) {
		if (!mask[i]) continue;
		labels[i] = binToCluster[binOf(rgba, i)];
		if (labels[i] !== 255) sizes[labels[i]]++;
	}
	const representatives = centres.map(
		(centre, c) => dominantShade(labs, binWeights, assignment, c) ?? centre,
	);
	return { labels, centres, representatives, sizes, farShare: foreground ? far / foreground : 0 };
}

const edgeWeight = 0.02;
/** Colour difference (sum over channels) below which two pixels count as the same colour. */
const edgeContrast = 24;
/** How far off the straight line between its neighbours a blend may lie, in the same units. */
const blendSlack = 40;

function difference(rgba: Uint8Array, o: number, p: number): number {
	return (
		abs(rgba[p] - rgba[o]) +
		abs(rgba[p + 1] - rgba[o + 1]) +
		abs(rgba[p + 2] - rgba[o + 2]) +
		abs(rgba[p + 3] - rgba[o + 3])
	);
}

/** True when the pixel lies between two unlike neighbours in colour: an anti-aliasing blend of them. */
function isBlend(rgba: Uint8Array, o: number, a: number, b: number): boolean {
	const toA = difference(rgba, o, a);
	const toB = difference(rgba, o, b);
	return (
		toA > edgeContrast && toB > edgeContrast && toA + toB <= difference(rgba, a, b) + blendSlack
	);
}

/**
 * Anti-aliased edge pixels are blends of the colours on either side. A hairline's own
 * pixels are not: they differ from both sides the same way, so they keep their weight.
 */
function onColourEdge(rgba: Uint8Array, i: number, width: number, size: number): boolean {
	const o = i * 4;
	const x = i % width;
	return (
		(x > 0 && x < width - 1 && isBlend(rgba, o, o - 4, o + 4)) ||
		(i >= width && i + width < size && isBlend(rgba, o, o - width * 4, o + width * 4))
	);
}

/** Shades this close (Lab units) to a cluster's heaviest colour count as that colour. */
const shadeRadius = 10;

function dominantShade(
	labs: Lab[],
	weights: number[],
	assignment: Int32Array,
	cluster: number,
): Lab | null {
	let heaviest = -1;
	for (let j = 0; j < labs.length; j++) {
		if (assignment[j] === cluster && (heaviest < 0 || weights[j] > weights[heaviest])) heaviest = j;
	}
	if (heaviest < 0) return null;
	const sum = [0, 0, 0, 0];
	for (let j = 0; j < labs.length; j++) {
		if (assignment[j] !== cluster || deltaE76(labs[j], labs[heaviest]) > shadeRadius) continue;
		sum[0] += labs[j][0] * weights[j];
		sum[1] += labs[j][1] * weights[j];
		sum[2] += labs[j][2] * weights[j];
		sum[3] += weights[j];
	}
	return [sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3]];
}

/** Share of the (edge-weighted) foreground below which a cluster is folded into its neighbours. */
const minClusterShare = 0.005;
/** A cluster whose pixels are nearly all on colour edges is a blend of its neighbours, not a colour. */
const minFlatShare = 0.25;

function clusterWeights(weights: number[], assignment: Int32Array, k: number): number[] {
	const totals = new Array<number>(k).fill(0);
	for (let j = 0; j < weights.length; j++) totals[assignment[j]] += weights[j];
	return totals;
}

/** Lloyd iterations over the weighted colour bins; updates centres and assignment in place. */
function refineCentres(
	labs: Lab[],
	weights: number[],
	centres: Lab[],
	assignment: Int32Array,
): void {
	for (let iteration = 0; iteration < maxIterations; iteration++) {
		let moved = 0;
		for (let j = 0; j < labs.length; j++) {
			const nearest = nearestCentre(labs[j], centres);
			if (nearest !== assignment[j] || iteration === 0) moved++;
			assignment[j] = nearest;
		}
		const totals = centres.map(() => [0, 0, 0, 0]);
		for (let j = 0; j < labs.length; j++) {
			const t = totals[assignment[j]];
			const w = weights[j];
			t[0] += labs[j][0] * w;
			t[1] += labs[j][1] * w;
			t[2] += labs[j][2] * w;
			t[3] += w;
		}
		totals.forEach((t, c) => {
			if (t[3] > 0) centres[c] = [t[0] / t[3], t[1] / t[3], t[2] / t[3]];
		});
		if (moved === 0) return;
	}
}

function nearestCentre(lab: Lab, centres: Lab[]): number {
	let best = 0;
	let bestDistance = 1e300;
	for (let c = 0; c < centres.length; c++) {
		const d0 = lab[0] - centres[c][0];
		const d1 = lab[1] - centres[c][1];
		const d2 = lab[2] - centres[c][2];
		const d = d0 * d0 + d1 * d1 + d2 * d2;
		if (d < bestDistance) {
			bestDistance = d;
			best = c;
		}
	}
	return best;
}

function seedCentres(labs: Lab[], weights: number[], k: number): Lab[] {
	let first = 0;
	for (let j = 1; j < labs.length; j++) if (weights[j] > weights[first]) first = j;
	const centres: Lab[] = [labs[first]];
	const nearest = labs.map((lab) => deltaE76(lab, labs[first]) ** 2);
	while (centres.length < k) {
		let pick = -1;
		let score = 0;
		for (let j = 0; j < labs.length; j++) {
			const s = nearest[j] * weights[j];
			if (s > score) {
				score = s;
				pick = j;
			}
		}
		if (pick < 0) break;
		centres.push(labs[pick]);
		for (let j = 0; j < labs.length; j++)
			nearest[j] = min(nearest[j], deltaE76(labs[j], labs[pick]) ** 2);
	}
	return centres;
}
