import { readColumn } from './column';
import { abs, cos, hypot, max, min, PI, sin } from './math';
import { components } from './parts';
import { axisOfMoments, background, chamferDistances, findRegions } from './regions';

/**
 * A light satin as drawn: its stitches side by side from rail to rail, bare fabric in the wedges
 * between them. Up to about 4 mm wide the wedges close on the working grid, the band is read as a
 * column, and its open satin is then read off the artwork (`openSatinPieces`). Wider, the wedges stay
 * open, and the band was a comb of thin lines traced one by one with short stitches.
 *
 * `closeCombs` closes such combs into their bands before the regions are found. Bare fabric is
 * closed where a disc of `closeMm` cannot reach it from the open fabric (a wedge's mouth is narrower).
 * A piece closed so is a satin's wedge when:
 * - it lies in one thread;
 * - it runs across a band wider than a line, most of the way (a line network's corners do not);
 * - two others lie beside it, alike, a stitch's pitch away (a lattice's node points every way, a
 *   zigzag's turns lie a whole period apart).
 * A band with `minWedges` such wedges is closed when, closed, it reads as one column: its open satin
 * is then sewn through the drawn holes. A band that does not (a turtle's shell, legs and head all
 * in one) is left as drawn.
 */

/** Gaps up to twice this wide close: a light satin's holes are about 1 mm apart, its threads 0.4 mm. */
const closeMm = 0.45;
/** Fewest wedges in a band: a row of stitches, not a few gaps between letters. */
const minWedges = 8;
/** Narrowest band whose wedges are closed, mm: wider than where a line network's lines meet. */
const minBandMm = 2.5;
/**
 * A wedge runs across at least this share of its band's width (where the stitches meet near the far
 * rail, the grid has closed it already), and at most this share (a satin's stitch slants).
 */
const minSpan = 0.3;
const maxSpan = 1.6;
/** The wedges beside one lie this far from it across its length, mm: a light satin's pitch. */
const minPitchMm = 0.4;
const maxPitchMm = 1.5;
/** How many such wedges lie beside each, turned from it by at most `maxTurn`. */
const combNeighbours = 2;
const maxTurn = (15 * PI) / 180;
/** Share of a wedge's edge that its thread must make up. */
const ownShare = 0.9;

interface Wedge {
	pixels: number[];
	thread: number;
	cx: number;
	cy: number;
	/** Direction of its long axis, radians (0 to pi). */
	angle: number;
}

/** Closes the combs of drawn light satins in `labels` (thread slots a pixel) in place; the pixels closed. */
export function closeCombs(
	labels: Uint8Array,
	width: number,
	height: number,
	pixelMm: number,
	maxBandMm: number,
): number {
	const size = width * height;
	const radius = closeMm / pixelMm;
	const thread = new Uint8Array(size);
	for (let i = 0; i < size; i++) thread[i] = labels[i] === background ? 0 : 1;
	const toThread = chamferDistances(thread, width, height);
	const open = new Uint8Array(size);
	for (let i = 0; i < size; i++) open[i] = toThread[i] > radius ? 1 : 0;
	const depth = chamferDistances(open, width, height);
	const kind = new Uint8Array(size);
	for (let i = 0; i < size; i++) kind[i] = !thread[i] && depth[i] > radius ? 2 : 0;
	// Each closed piece with the thread round it, where one thread is.
	const pieces = components(kind, width, height, 2, true).flatMap((pixels) => {
		const thread = ownThread(pixels, labels, width, height);
		return thread === null ? [] : [{ pixels, thread }];
	});
	const wedges = pieces
		.map((piece) => readWedge(piece, width, depth, pixelMm))
		.filter((wedge): wedge is Wedge => wedge !== null);
	const near = nearbyWedges(wedges, pixelMm);
	const combs = wedges.filter((wedge) => inComb(wedge, near(wedge), pixelMm));
	const combsOf = new Map<number, number>();
	for (const { thread } of combs) combsOf.set(thread, (combsOf.get(thread) ?? 0) + 1);
	let closed = 0;
	for (const [slot, count] of combsOf) {
		// Too few for any band of it: its bands are not worth finding (a large design's take 50-90 ms each).
		if (count < minWedges) continue;
		// Every closed piece of the thread's band is closed with it, not only its wedges.
		const band = new Uint8Array(size);
		for (let i = 0; i < size; i++) band[i] = labels[i] === slot ? 1 : 0;
		for (const piece of pieces)
			if (piece.thread === slot) for (const i of piece.pixels) band[i] = 1;
		const bandOf = new Int32Array(size).fill(-1);
		const bands = components(band, width, height, 1);
		bands.forEach((pixels, n) => {
			for (const i of pixels) bandOf[i] = n;
		});
		const counts = new Map<number, number>();
		for (const wedge of combs) {
			if (wedge.thread !== slot) continue;
			const n = bandOf[wedge.pixels[0]];
			counts.set(n, (counts.get(n) ?? 0) + 1);
		}
		for (const [n, count] of counts) {
			if (count < minWedges || !isColumn(bands[n], width, maxBandMm / pixelMm)) continue;
			for (const i of bands[n]) {
				if (labels[i] !== background) continue;
				labels[i] = slot;
				closed++;
			}
		}
	}
	return closed;
}

/** The closed piece as a wedge of its thread's satin, or null where it is not one. */
function readWedge(
	{ pixels, thread }: { pixels: number[]; thread: number },
	width: number,
	depth: Float32Array,
	pixelMm: number,
): Wedge | null {
	let deepest = 0;
	for (const i of pixels) deepest = max(deepest, depth[i]);
	// The band's width where the wedge lies: twice the deepest it reaches into the closed band.
	const across = 2 * deepest;
	const axis = axisOf(pixels, width);
	if (across * pixelMm < minBandMm) return null;
	if (axis.span < minSpan * across || axis.span > maxSpan * across) return null;
	return { pixels, thread, cx: axis.cx, cy: axis.cy, angle: axis.angle };
}

/** The thread that makes up `ownShare` of the piece's edge (its 4-neighbours outside it), if one does. */
function ownThread(
	pixels: number[],
	labels: Uint8Array,
	width: number,
	height: number,
): number | null {
	const counts = new Map<number, number>();
	let edge = 0;
	for (const i of pixels) {
		const x = i % width;
		for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
			if (j < 0 || j >= width * height || labels[j] === background) continue;
			counts.set(labels[j], (counts.get(labels[j]) ?? 0) + 1);
			edge++;
		}
	}
	for (const [slot, count] of counts) if (count >= ownShare * edge) return slot;
	return null;
}

/**
 * The wedges in the cells round a wedge's: every one that can lie beside it (a pitch across, less
 * along), so each wedge is compared with a few, not with every other (a pattern of thousands).
 */
function nearbyWedges(wedges: Wedge[], pixelMm: number): (wedge: Wedge) => Wedge[] {
	const cellPx = (Math.SQRT2 * maxPitchMm) / pixelMm;
	const cells = new Map<string, Wedge[]>();
	const key = (cx: number, cy: number) => `${cx},${cy}`;
	for (const wedge of wedges) {
		const at = key(Math.floor(wedge.cx / cellPx), Math.floor(wedge.cy / cellPx));
		const list = cells.get(at);
		if (list) list.push(wedge);
		else cells.set(at, [wedge]);
	}
	return (wedge) => {
		const cx = Math.floor(wedge.cx / cellPx);
		const cy = Math.floor(wedge.cy / cellPx);
		const found: Wedge[] = [];
		for (let y = cy - 1; y <= cy + 1; y++) {
			for (let x = cx - 1; x <= cx + 1; x++) found.push(...(cells.get(key(x, y)) ?? []));
		}
		return found;
	};
}

/** Whether `combNeighbours` wedges of its thread lie beside the wedge, a pitch away and alike. */
function inComb(wedge: Wedge, wedges: Wedge[], pixelMm: number): boolean {
	let alike = 0;
	const ux = cos(wedge.angle);
	const uy = sin(wedge.angle);
	for (const other of wedges) {
		if (other === wedge || other.thread !== wedge.thread) continue;
		const dx = other.cx - wedge.cx;
		const dy = other.cy - wedge.cy;
		// Side by side, not pieces of one wedge along its length.
		const along = abs(dx * ux + dy * uy) * pixelMm;
		const aside = abs(dy * ux - dx * uy) * pixelMm;
		if (aside < minPitchMm || aside > maxPitchMm || along > aside) continue;
		const turn = abs(other.angle - wedge.angle);
		if (min(turn, PI - turn) <= maxTurn && ++alike >= combNeighbours) return true;
	}
	return false;
}

/** A piece's centre, the direction of its long axis (0 to pi) and the diagonal of its box, pixels. */
function axisOf(
	pixels: number[],
	width: number,
): { cx: number; cy: number; angle: number; span: number } {
	let sx = 0;
	let sy = 0;
	let sxx = 0;
	let syy = 0;
	let sxy = 0;
	for (const i of pixels) {
		const x = i % width;
		const y = (i - x) / width;
		sx += x;
		sy += y;
		sxx += x * x;
		syy += y * y;
		sxy += x * y;
	}
	const { cx, cy, angle } = axisOfMoments(pixels.length, sx, sy, sxx, syy, sxy);
	const box = boxOf(pixels, width);
	const span = hypot(box.maxX - box.minX + 1, box.maxY - box.minY + 1);
	return { cx, cy, angle: angle < 0 ? angle + PI : angle, span };
}

/** The box round pixels given as indices of an image `width` wide. */
function boxOf(
	pixels: number[],
	width: number,
): { minX: number; minY: number; maxX: number; maxY: number } {
	const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
	for (const i of pixels) {
		const x = i % width;
		const y = (i - x) / width;
		box.minX = min(box.minX, x);
		box.maxX = max(box.maxX, x);
		box.minY = min(box.minY, y);
		box.maxY = max(box.maxY, y);
	}
	return box;
}

/** Whether a band (pixel indices of the image) read alone is one column, or a ragged one. */
function isColumn(pixels: number[], width: number, maxWidthPx: number): boolean {
	const { minX, minY, maxX, maxY } = boxOf(pixels, width);
	// A pixel of margin round it: its outline is traced against the background.
	const w = maxX - minX + 3;
	const h = maxY - minY + 3;
	const labels = new Uint8Array(w * h).fill(background);
	for (const i of pixels) {
		const x = i % width;
		labels[((i - x) / width - minY + 1) * w + x - minX + 1] = 0;
	}
	const map = findRegions(labels, w, h);
	const first = pixels[0] % width;
	const id = map.ids[((pixels[0] - first) / width - minY + 1) * w + first - minX + 1];
	return readColumn(map, id, maxWidthPx) !== null;
}
