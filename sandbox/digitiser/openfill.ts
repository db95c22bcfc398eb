import { halfThreadMm } from './satin';
import { abs, atan2, ceil, cos, floor, hypot, max, min, PI, round, sin, sqrt } from './math';
import { background, insetDistances, type Region, type RegionMap } from './regions';

/**
 * Rows of one thread laid open over a fill of another, so the lower colour shows between them in
 * stripes: how a professional sews a shaded or two-tone area, and what artwork drawn from such a
 * design shows as fine parallel slits of one colour through another.
 */
export interface OpenFill {
	/** The area: sewn as an ordinary fill in its own (the lower) thread first. */
	regionId: number;
	/** The thread of the open rows sewn over it. */
	thread: number;
	/** Direction of the rows, radians. */
	angle: number;
	/** Distance between rows, working pixels. */
	spacingPx: number;
	/**
	 * Where the stripes' middles lie across the scan frame of `angle`, in spacings (see
	 * `scanRegion`'s `phase`).
	 */
	phase: number;
	/** How wide each stripe of the upper thread is, working pixels: one row or more side by side. */
	stripePx: number;
}

/** Smallest area worth reading for stripes, mm²: a few rows' length of a few rows. */
const minAreaMm2 = 10;
/**
 * Slits of the lower colour are at most this wide on the working grid, mm: a thread's width (rows
 * laid two threads apart leave slits that wide), which the grid can round up to three of its finest
 * pixels (0.45 mm).
 */
const maxSlitMm = 0.5;
/** The lower colour's share of the area: slits, not a second shape. */
const minSlitShare = 0.08;
const maxSlitShare = 0.5;
/** How alike the slits' directions must be (0 random, 1 all parallel). */
const minCoherence = 0.6;
/**
 * How strongly the slits repeat at the period found, as a share of what perfectly even stripes of
 * the same share would give.
 */
const minRegularity = 0.6;
/**
 * How much more of the area open rows must draw in the right colour than one solid fill of the
 * upper thread would (rows in the wrong place draw less than solid fill: an open fill must earn it).
 */
const minGain = 0.08;
/** Stripes of the upper colour rows can draw: from most of a thread's width to two threads', mm. */
const minStripeMm = 0.6 * 2 * halfThreadMm;
const maxStripeMm = 2.2 * 2 * halfThreadMm;
/** Periods tried step by this fraction of the period. */
const periodStep = 0.005;
/** How many of the strongest repeats are weighed by the rows each would give. */
const peaksWeighed = 3;

/**
 * Finds the areas whose artwork, at its own pixels, shows regular stripes of two threads, and
 * records each as an open fill (`map.openFills`): the area becomes one region of the lower thread,
 * and the upper thread's rows follow the stripes. On the working grid such an area is pieces of
 * the upper colour cut apart by slits of the lower one, a grid pixel or two wide, or one region
 * whose slits the grid merged away; only flat artwork finer than the grid is read (`map.fine`), as
 * the grid alone cannot place a slit.
 */
export function findOpenFills(map: RegionMap, pixelMm: number): void {
	if (!map.fine) return;
	const found: OpenFill[] = [];
	const taken = new Set<number>();
	for (const { host, area } of stripedAreaCandidates(map, pixelMm)) {
		if (area.some((id) => taken.has(id))) continue;
		const upper = map.regions[host].label;
		const stripes = readStripes(map, area, upper, pixelMm);
		// A thread is under open rows or in them, never both: the blocks can then always be ordered.
		if (
			!stripes ||
			found.some((o) => o.thread === stripes.lower || map.regions[o.regionId].label === upper)
		)
			continue;
		for (const id of area) {
			taken.add(id);
			if (id !== host) moveInto(map, map.regions[id], map.regions[host]);
		}
		found.push({ regionId: host, thread: upper, ...stripes.rows });
		map.regions[host].label = stripes.lower;
	}
	if (found.length === 0) return;
	map.openFills = found;
	const labels = new Uint8Array(map.width * map.height);
	for (let i = 0; i < labels.length; i++) labels[i] = map.regions[map.ids[i]].label;
	map.inset = insetDistances(labels, map.width, map.height);
	for (const open of found) {
		const region = map.regions[open.regionId];
		for (let y = region.minY; y <= region.maxY; y++) {
			for (let i = y * map.width + region.minX; i <= y * map.width + region.maxX; i++) {
				if (map.ids[i] === region.id) region.widthPx = max(region.widthPx, 2 * map.inset[i] - 1);
			}
		}
	}
}

/**
 * Regions that could be one striped area, largest first: pieces of one colour joined through the
 * thin regions of one other colour that touch them (the slits), and each broader region of its
 * own (the grid may have merged every slit into it). The host is the largest piece.
 */
function stripedAreaCandidates(
	map: RegionMap,
	pixelMm: number,
): Array<{ host: number; area: number[] }> {
	const { width, height, ids, regions } = map;
	const thin = (id: number) => regions[id].widthPx * pixelMm <= maxSlitMm;
	const usable = (id: number) =>
		regions[id].label !== background && regions[id].area > 0 && !regions[id].stroke;
	// Every pair of touching regions (a thin one and a broader one of another colour), once.
	const pairs = new Set<number>();
	const count = regions.length;
	const touch = (a: number, b: number) => {
		if (a === b || !usable(a) || !usable(b) || thin(a) === thin(b)) return;
		const [slit, piece] = thin(a) ? [a, b] : [b, a];
		pairs.add(slit * count + piece);
	};
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = y * width + x;
			if (x + 1 < width) touch(ids[i], ids[i + 1]);
			if (y + 1 < height) touch(ids[i], ids[i + width]);
		}
	}
	// Joined per pair of colours (upper, lower): a slit joins the upper pieces it touches.
	const parent = new Map<string, Map<number, number>>();
	const find = (sets: Map<number, number>, id: number): number => {
		let root = id;
		while (sets.has(root) && sets.get(root) !== root) root = sets.get(root)!;
		return root;
	};
	for (const pair of pairs) {
		const slit = floor(pair / count);
		const piece = pair % count;
		const key = `${regions[piece].label}/${regions[slit].label}`;
		let sets = parent.get(key);
		if (!sets) parent.set(key, (sets = new Map()));
		if (!sets.has(slit)) sets.set(slit, slit);
		if (!sets.has(piece)) sets.set(piece, piece);
		const a = find(sets, slit);
		const b = find(sets, piece);
		if (a !== b) sets.set(a, b);
	}
	const groups: number[][] = [];
	for (const sets of parent.values()) {
		const members = new Map<number, number[]>();
		for (const id of sets.keys()) {
			const root = find(sets, id);
			const list = members.get(root);
			if (list) list.push(id);
			else members.set(root, [id]);
		}
		groups.push(...members.values());
	}
	for (let id = 0; id < count; id++) if (usable(id) && !thin(id)) groups.push([id]);
	const minAreaPx = minAreaMm2 / (pixelMm * pixelMm);
	// Each group's pixels summed once, not at every comparison of the sort.
	return groups
		.map((list) => ({
			list: list.sort((a, b) => a - b),
			px: list.reduce((sum, id) => sum + regions[id].area, 0),
		}))
		.filter(({ px }) => px >= minAreaPx)
		.sort((a, b) => b.px - a.px || a.list[0] - b.list[0] || a.list.length - b.list.length)
		.map(({ list: area }) => ({
			host: area.reduce((a, b) =>
				thin(a) || (!thin(b) && regions[b].area > regions[a].area) ? b : a,
			),
			area,
		}));
}

interface Stripes {
	lower: number;
	rows: Pick<OpenFill, 'angle' | 'spacingPx' | 'phase' | 'stripePx'>;
}

/**
 * Reads the area at the source's pixels: when one other thread makes up a slit's share of it, in
 * parallel slits that repeat evenly, the stripes' direction, period, place and width, the rows of
 * the upper thread lying midway between the slits. Null where open rows would not draw the area
 * clearly better than one solid fill of the upper thread.
 */
function readStripes(
	map: RegionMap,
	area: number[],
	upper: number,
	pixelMm: number,
): Stripes | null {
	const sample = sampleArea(map, area, upper);
	if (!sample) return null;
	const { lower, share } = sample;
	const across = slitNormal(sample);
	if (across === null) return null;
	const profile = profileAcross(sample, across);
	const minPeriod = minStripeMm / (1 - share) / pixelMm;
	const maxPeriod = maxStripeMm / (1 - share) / pixelMm;
	// Even stripes of this share give sin(pi share) / pi a pixel at their period.
	const even = profile.total * (sin(PI * share) / PI);
	let chosen: { repeat: Repeat; rowAt: number; width: ReturnType<typeof stripeWidth> } | null =
		null;
	for (const repeat of strongestRepeats(profile, share, minPeriod, maxPeriod, peaksWeighed)) {
		if (repeat.amplitude / even < minRegularity) continue;
		// The slits' middles lie at this distance across (mod the period); the rows midway between.
		const rowAt = profile.tMin + (repeat.phase / (2 * PI) + 0.5) * repeat.period;
		const width = stripeWidth(profile, repeat.period, rowAt);
		if (!chosen || width.agreement > chosen.width.agreement) chosen = { repeat, rowAt, width };
	}
	if (!chosen || chosen.width.agreement - (1 - share) < minGain) return null;
	const { repeat, rowAt, width } = chosen;
	// Rows run along the slits; the scan rows of that direction lie at v = -t (see `scanRegion`).
	const phase = -rowAt / repeat.period;
	return {
		lower,
		rows: {
			angle: profile.across + PI / 2,
			spacingPx: repeat.period,
			phase: phase - floor(phase),
			stripePx: width.fraction * repeat.period,
		},
	};
}

/** The area's source pixels: 1 the upper thread, 2 the lower, 0 another or outside the area. */
interface AreaSample {
	kinds: Uint8Array;
	/** The sample's first source pixel, and its size in source pixels. */
	fx0: number;
	fy0: number;
	fw: number;
	fh: number;
	scaleX: number;
	scaleY: number;
	lower: number;
	/** The lower thread's share of the two threads' pixels. */
	share: number;
}

function sampleArea(map: RegionMap, area: number[], upper: number): AreaSample | null {
	const fine = map.fine!;
	const { scaleX, scaleY } = fine.raster;
	const { width, ids } = map;
	const inArea = new Set(area);
	const box = boxOf(map, area);
	const fx0 = floor(box.minX * scaleX);
	const fy0 = floor(box.minY * scaleY);
	const fw = ceil((box.maxX + 1) * scaleX) - fx0;
	const fh = ceil((box.maxY + 1) * scaleY) - fy0;
	const slots = new Int16Array(fw * fh).fill(-1);
	const counts = new Map<number, number>();
	for (let fy = 0; fy < fh; fy++) {
		const gy = (fy0 + fy + 0.5) / scaleY;
		const y = floor(gy);
		if (y < box.minY || y > box.maxY) continue;
		for (let fx = 0; fx < fw; fx++) {
			const gx = (fx0 + fx + 0.5) / scaleX;
			const x = floor(gx);
			if (x < box.minX || x > box.maxX || !inArea.has(ids[y * width + x])) continue;
			const slot = fine.at(gx, gy);
			slots[fy * fw + fx] = slot;
			counts.set(slot, (counts.get(slot) ?? 0) + 1);
		}
	}
	let lower = -1;
	let most = 0;
	for (const [slot, n] of counts) {
		if (slot === upper || slot === background || n <= most) continue;
		lower = slot;
		most = n;
	}
	const share = most / ((counts.get(upper) ?? 0) + most);
	if (lower < 0 || share < minSlitShare || share > maxSlitShare) return null;
	const kinds = new Uint8Array(slots.length);
	for (let k = 0; k < slots.length; k++) {
		kinds[k] = slots[k] === upper ? 1 : slots[k] === lower ? 2 : 0;
	}
	return { kinds, fx0, fy0, fw, fh, scaleX, scaleY, lower, share };
}

/**
 * The direction across the slits at the source's pixels (radians), from the structure tensor of
 * the lower thread's outline; null when the slits do not run alike.
 */
function slitNormal({ kinds, fw, fh }: AreaSample): number | null {
	let jxx = 0;
	let jyy = 0;
	let jxy = 0;
	for (let fy = 1; fy < fh - 1; fy++) {
		for (let fx = 1; fx < fw - 1; fx++) {
			const k = fy * fw + fx;
			const l = kinds[k - 1];
			const r = kinds[k + 1];
			const u = kinds[k - fw];
			const d = kinds[k + fw];
			if (!l || !r || !u || !d) continue;
			const gx = (r === 2 ? 1 : 0) - (l === 2 ? 1 : 0);
			const gy = (d === 2 ? 1 : 0) - (u === 2 ? 1 : 0);
			jxx += gx * gx;
			jyy += gy * gy;
			jxy += gx * gy;
		}
	}
	const spread = jxx + jyy;
	if (spread === 0 || sqrt((jxx - jyy) ** 2 + 4 * jxy * jxy) / spread < minCoherence) return null;
	return 0.5 * atan2(2 * jxy, jxx - jyy);
}

/** Bin width of the profile across the slits, working pixels. */
const profileBin = 0.05;

/** How many pixels of each thread lie at each distance `t` across the slits, on the working grid. */
interface Profile {
	/** The direction across on the working grid, radians. */
	across: number;
	tMin: number;
	upper: Float64Array;
	lower: Float64Array;
	total: number;
}

function profileAcross(sample: AreaSample, acrossSource: number): Profile {
	const { kinds, fx0, fy0, fw, scaleX, scaleY } = sample;
	// On the working grid (whose pixels may not be square over the source's) the normal is
	// (cos * scaleX, sin * scaleY); t is the distance along it.
	const nx = cos(acrossSource);
	const ny = sin(acrossSource);
	const norm = hypot(nx * scaleX, ny * scaleY);
	const tOf = (k: number) =>
		((fx0 + (k % fw) + 0.5) * nx + (fy0 + floor(k / fw) + 0.5) * ny) / norm;
	let tMin = Infinity;
	let tMax = -Infinity;
	for (let k = 0; k < kinds.length; k++) {
		if (!kinds[k]) continue;
		const t = tOf(k);
		tMin = min(tMin, t);
		tMax = max(tMax, t);
	}
	const bins = floor((tMax - tMin) / profileBin) + 1;
	const upper = new Float64Array(bins);
	const lower = new Float64Array(bins);
	let total = 0;
	for (let k = 0; k < kinds.length; k++) {
		if (!kinds[k]) continue;
		const b = floor((tOf(k) - tMin) / profileBin);
		if (kinds[k] === 2) lower[b]++;
		else upper[b]++;
		total++;
	}
	return { across: atan2(ny * scaleY, nx * scaleX), tMin, upper, lower, total };
}

interface Repeat {
	/** Working pixels. */
	period: number;
	amplitude: number;
	/** Radians: the slits' middles at 0. */
	phase: number;
}

/**
 * The periods (working pixels) at which the slits repeat most strongly: the `count` strongest
 * peaks of the profile's spectrum, each refined to a twentieth of the search's step. A peak at half
 * the true period (every other gap of a pattern showing) can be the strongest: the caller weighs
 * each by the rows it would give.
 */
function strongestRepeats(
	profile: Profile,
	share: number,
	minPeriod: number,
	maxPeriod: number,
	count: number,
): Repeat[] {
	// The lower thread counts 1 - share and the upper -share: the sum is zero, a repeat a peak.
	const signal = profile.lower.map((lower, b) => lower * (1 - share) - profile.upper[b] * share);
	const at = (period: number): Repeat => {
		let re = 0;
		let im = 0;
		const w = (2 * PI * profileBin) / period;
		for (let b = 0; b < signal.length; b++) {
			const s = signal[b];
			if (s === 0) continue;
			re += s * cos(w * (b + 0.5));
			im += s * sin(w * (b + 0.5));
		}
		return { period, amplitude: hypot(re, im), phase: atan2(im, re) };
	};
	const scan: Repeat[] = [];
	for (let period = minPeriod; period <= maxPeriod; period *= 1 + periodStep) scan.push(at(period));
	const peaks = scan.filter(
		(r, k) =>
			(k === 0 || scan[k - 1].amplitude < r.amplitude) &&
			(k === scan.length - 1 || scan[k + 1].amplitude <= r.amplitude),
	);
	return peaks
		.sort((a, b) => b.amplitude - a.amplitude)
		.slice(0, count)
		.map((peak) => {
			let best = peak;
			for (let k = -20; k <= 20; k++) {
				const refined = at(peak.period * (1 + (k * periodStep) / 20));
				if (refined.amplitude > best.amplitude) best = refined;
			}
			return best;
		});
}

/**
 * How wide the upper thread's stripes are (a fraction of the period) where its pixels give way to
 * the lower's either side of a row's middle, and the share of the area rows that wide draw right.
 */
function stripeWidth(
	profile: Profile,
	period: number,
	rowAt: number,
): { fraction: number; agreement: number } {
	const steps = 64;
	const upperAt = new Float64Array(steps);
	const lowerAt = new Float64Array(steps);
	for (let b = 0; b < profile.upper.length; b++) {
		const d = (profile.tMin + (b + 0.5) * profileBin - rowAt) / period;
		const k = min(steps - 1, floor(abs(d - round(d)) * 2 * steps));
		upperAt[k] += profile.upper[b];
		lowerAt[k] += profile.lower[b];
	}
	let right = 0;
	for (let k = 0; k < steps; k++) right += lowerAt[k];
	let best = { fraction: 0, right };
	for (let k = 0; k < steps; k++) {
		right += upperAt[k] - lowerAt[k];
		if (right > best.right) best = { fraction: (k + 1) / steps, right };
	}
	return { fraction: best.fraction, agreement: best.right / profile.total };
}

/** The box round a group of regions. */
function boxOf(map: RegionMap, area: number[]): Pick<Region, 'minX' | 'minY' | 'maxX' | 'maxY'> {
	const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
	for (const id of area) {
		const r = map.regions[id];
		box.minX = min(box.minX, r.minX);
		box.minY = min(box.minY, r.minY);
		box.maxX = max(box.maxX, r.maxX);
		box.maxY = max(box.maxY, r.maxY);
	}
	return box;
}

/** Moves a region's pixels into another; the first is left empty. */
function moveInto(map: RegionMap, from: Region, into: Region): void {
	const { width, ids } = map;
	for (let y = from.minY; y <= from.maxY; y++) {
		for (let x = from.minX; x <= from.maxX; x++) {
			const i = y * width + x;
			if (ids[i] !== from.id) continue;
			ids[i] = into.id;
		}
	}
	into.area += from.area;
	into.minX = min(into.minX, from.minX);
	into.minY = min(into.minY, from.minY);
	into.maxX = max(into.maxX, from.maxX);
	into.maxY = max(into.maxY, from.maxY);
	into.touchesBorder ||= from.touchesBorder;
	from.area = 0;
	from.label = background;
}
