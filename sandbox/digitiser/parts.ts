import { ceil, floor, max, min } from './math';
import { background, chamferDistances, regionPixels, type Region, type RegionMap } from './regions';

/**
 * Splits every region into its thin strokes and its thick body, in place: a ring with a lattice
 * inside, a ball on a cord, a stem with leaves. The body is what stays after a morphological
 * opening (every pixel within reach of a disc `strokePx` wide that fits inside the region); each
 * thin part long enough to be a stroke becomes a region of its own, narrower than `strokePx`
 * (so it is sewn as a running stitch), and what is left of the body is one region per
 * connected piece (so a band stays one satin column and is not a fill with strokes attached).
 * Thin slivers too short to be strokes (rounded corners, stair steps) stay with the body.
 */
export function splitThinParts(map: RegionMap, strokePx: number, minStrokeAreaPx: number): void {
	const count = map.regions.length;
	for (let id = 0; id < count; id++) {
		const region = map.regions[id];
		if (region.label === background || region.widthPx <= strokePx) continue;
		splitRegion(map, region, strokePx, minStrokeAreaPx);
	}
}

/**
 * Splits the narrow bands off every shape much wider than them, in place: a stem under a flower's
 * head, the handle of a ball. What is narrower than `bandPx` in a region at least twice as wide,
 * in pieces of at least `minBandAreaPx`, becomes a region of its own (sewn as a satin that turns
 * with it, or across it), instead of rows of the wide shape's fill running along it in short
 * sections. Shorter pieces (corners, the tips of points and leaves) stay with the shape.
 */
export function splitNarrowBands(map: RegionMap, bandPx: number, minBandAreaPx: number): void {
	const count = map.regions.length;
	for (let id = 0; id < count; id++) {
		const region = map.regions[id];
		if (region.label === background || region.stroke || region.widthPx < 2 * bandPx) continue;
		splitRegion(map, region, bandPx, minBandAreaPx, false);
	}
}

/** Body pieces smaller than this many stroke areas are joints between strokes, sewn with them. */
const minBodyAreaStrokes = 3;

/**
 * Splits one region into its body and the parts narrower than `strokePx` (see `splitThinParts`):
 * as strokes, sewn as running stitch (a network of them as a whole), or as bands of their own.
 */
function splitRegion(
	map: RegionMap,
	region: Region,
	strokePx: number,
	minStrokeAreaPx: number,
	asStrokes = true,
): void {
	const { width, ids, inset } = map;
	const x0 = region.minX;
	const y0 = region.minY;
	const w = region.maxX - x0 + 1;
	const h = region.maxY - y0 + 1;
	const at = (x: number, y: number) => (y0 + y) * width + x0 + x;
	// Chamfer distance (in pixels) to the nearest core pixel: one whose inscribed disc is wider than a stroke.
	const radius = strokePx / 2 + 0.5;
	const core = new Uint8Array(w * h);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const i = at(x, y);
			if (ids[i] === region.id && inset[i] > radius) core[y * w + x] = 1;
		}
	}
	const d = chamferDistances(core, w, h);
	// 0 outside the region, 1 body, 2 thin.
	const kind = new Uint8Array(w * h);
	let thinPixels = 0;
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			if (ids[at(x, y)] !== region.id) continue;
			const k = y * w + x;
			kind[k] = d[k] <= ceil(radius) ? 1 : 2;
			if (kind[k] === 2) thinPixels++;
		}
	}
	// A network of thin lines whose only wide places are where they cross (a lattice, a grid) is
	// a stroke as a whole: sewn along its lines, not filled.
	const body = components(kind, w, h, 1);
	if (
		asStrokes &&
		thinPixels > region.area / 2 &&
		body.every((piece) => piece.length < minBodyAreaStrokes * minStrokeAreaPx)
	) {
		region.widthPx = min(region.widthPx, strokePx * 0.99);
		region.stroke = true;
		return;
	}
	if (thinPixels < minStrokeAreaPx) return;
	// Thin pieces too small to be strokes go back to the body, and so do bands that are not stems.
	const pieces = components(kind, w, h, 2);
	let strokes = 0;
	const bodyOf = asStrokes ? null : pieceIds(body, w * h);
	for (const piece of pieces) {
		if (piece.length >= minStrokeAreaPx && (!bodyOf || isStem(bodyOf, w, h, piece, strokePx)))
			strokes++;
		else for (const k of piece) kind[k] = 1;
	}
	if (strokes === 0) return;
	// Body pieces no bigger than a few crossings of strokes are where strokes meet: part of them.
	for (const piece of components(kind, w, h, 1)) {
		if (piece.length < minBodyAreaStrokes * minStrokeAreaPx) for (const k of piece) kind[k] = 2;
	}
	const parts = [
		...components(kind, w, h, 1).map((pixels) => ({ pixels, thin: false })),
		...components(kind, w, h, 2).map((pixels) => ({ pixels, thin: true })),
	];
	const made = regionsFromPieces(
		map,
		region,
		parts.map(({ pixels }) => pixels),
		{ x0, y0, w },
	);
	parts.forEach(({ thin }, n) => {
		const target = made[n];
		// A stroke or band meets the body where the region is wide: it is still as narrow.
		if (thin) target.widthPx = min(target.widthPx, strokePx * 0.99);
		if (thin && asStrokes) target.stroke = true;
		else delete target.stroke;
	});
}

/**
 * Makes each piece (pixel indices into the box at `x0`, `y0`, `w` wide, all of `region`) a region,
 * in place: the first keeps `region`'s id, the others are new regions like it. Each region's box and
 * width (from `map.inset`) are measured afresh.
 */
export function regionsFromPieces(
	map: RegionMap,
	region: Region,
	pieces: number[][],
	box: { x0: number; y0: number; w: number },
): Region[] {
	const { width, ids, inset, regions } = map;
	const { x0, y0, w } = box;
	return pieces.map((pixels, n) => {
		const target: Region = n === 0 ? region : { ...region, id: regions.length };
		if (n > 0) regions.push(target);
		target.area = pixels.length;
		target.minX = map.width;
		target.minY = map.height;
		target.maxX = 0;
		target.maxY = 0;
		target.widthPx = 0;
		for (const k of pixels) {
			const x = (k % w) + x0;
			const y = floor(k / w) + y0;
			const i = y * width + x;
			ids[i] = target.id;
			target.minX = min(target.minX, x);
			target.minY = min(target.minY, y);
			target.maxX = max(target.maxX, x);
			target.maxY = max(target.maxY, y);
			target.widthPx = max(target.widthPx, 2 * inset[i] - 1);
		}
		return target;
	});
}

/** Which piece (its index, or -1) each pixel of the box is in. */
function pieceIds(pieces: number[][], size: number): Int32Array {
	const ids = new Int32Array(size).fill(-1);
	pieces.forEach((piece, n) => {
		for (const k of piece) ids[k] = n;
	});
	return ids;
}

/**
 * True when a narrow piece meets one piece of the body at one end, as a stem meets its head: along
 * at most twice its width. A piece between two parts of the body (the bars of a hatched area
 * between its wider places, the sides of a vase beside its glass) stays with them.
 */
function isStem(
	bodyOf: Int32Array,
	w: number,
	h: number,
	piece: number[],
	widthPx: number,
): boolean {
	let contact = 0;
	let head = -1;
	// The 4-neighbours' body pieces, written into one shared array (no list per pixel).
	const around = new Int32Array(4);
	for (const k of piece) {
		const x = k % w;
		around[0] = x > 0 ? bodyOf[k - 1] : -1;
		around[1] = x < w - 1 ? bodyOf[k + 1] : -1;
		around[2] = k >= w ? bodyOf[k - w] : -1;
		around[3] = k + w < w * h ? bodyOf[k + w] : -1;
		let touches = false;
		for (const body of around) {
			if (body < 0) continue;
			if (head >= 0 && body !== head) return false;
			head = body;
			touches = true;
		}
		if (touches) contact++;
	}
	return head >= 0 && contact <= 2 * widthPx;
}

/**
 * 4-connected pieces of the pixels of one kind, each as a list of indices into the box; 8-connected
 * with `diagonal` (a wedge narrowing to a pixel steps diagonally).
 */
export function components(
	kind: Uint8Array,
	w: number,
	h: number,
	wanted: number,
	diagonal = false,
): number[][] {
	const seen = new Uint8Array(w * h);
	// Every pixel is pushed once at most.
	const stack = new Int32Array(w * h);
	const pieces: number[][] = [];
	for (let start = 0; start < w * h; start++) {
		if (kind[start] !== wanted || seen[start]) continue;
		const piece: number[] = [];
		let top = 0;
		stack[top++] = start;
		seen[start] = 1;
		while (top > 0) {
			const k = stack[--top];
			piece.push(k);
			const x = k % w;
			// Left, right, up, down, as pushed before; no list per pixel.
			if (x > 0 && kind[k - 1] === wanted && !seen[k - 1]) {
				seen[k - 1] = 1;
				stack[top++] = k - 1;
			}
			if (x < w - 1 && kind[k + 1] === wanted && !seen[k + 1]) {
				seen[k + 1] = 1;
				stack[top++] = k + 1;
			}
			if (k >= w && kind[k - w] === wanted && !seen[k - w]) {
				seen[k - w] = 1;
				stack[top++] = k - w;
			}
			if (k + w < w * h && kind[k + w] === wanted && !seen[k + w]) {
				seen[k + w] = 1;
				stack[top++] = k + w;
			}
			if (!diagonal) continue;
			const y = (k - x) / w;
			for (const [nx, ny] of [
				[x - 1, y - 1],
				[x + 1, y - 1],
				[x - 1, y + 1],
				[x + 1, y + 1],
			]) {
				const n = ny * w + nx;
				if (nx < 0 || ny < 0 || nx >= w || ny >= h || kind[n] !== wanted || seen[n]) continue;
				seen[n] = 1;
				stack[top++] = n;
			}
		}
		pieces.push(piece);
	}
	return pieces;
}

/**
 * Gives back to a fill the thin strips of its colour that show just past an outline sewn over its
 * edge at the design's edge, in place: where the artwork's fill reaches a little past the line laid
 * on it (as a professional's lower layer does), the strip between the line and the fabric is that
 * fill, so its rows run on under the line (its underlap, `reachPx`) to the strip's edge instead of
 * the strip being sewn as a line of its own half a thread inside that edge. A strip (a region no
 * wider than `strokePx`) qualifies when it borders the background, does not touch a wide area of
 * its own colour (a stroke split off a body stays a stroke) and, along more than half of its edge
 * with other colours, a wide area of its colour lies within `reachPx` across them (a stripe between
 * two other colours inside the design stays a line). Each of its pixels joins the nearest such area.
 */
export function joinShowingFill(map: RegionMap, strokePx: number, reachPx: number): void {
	const { regions } = map;
	const isWide = (region: Region) =>
		region.label !== background && !region.stroke && region.widthPx > strokePx;
	const wide = regions.filter(isWide);
	const count = regions.length;
	// Strips' pixels, read once: a strip only gives its own pixels to wide areas, so the others' stay as
	// they were (a long slanted strip's box is most of the map).
	let pixelsOf: ((regionId: number) => Int32Array) | null = null;
	for (let id = 0; id < count; id++) {
		const strip = regions[id];
		if (strip.label === background || strip.area === 0 || isWide(strip)) continue;
		// Only a wide area of its colour whose box comes within reach (across an outline up to
		// `reachPx` wide, so one pixel more) can be across an outline from it.
		const margin = reachPx + 1;
		const near = wide.some(
			(region) =>
				region.label === strip.label &&
				region.minX <= strip.maxX + margin &&
				region.maxX >= strip.minX - margin &&
				region.minY <= strip.maxY + margin &&
				region.maxY >= strip.minY - margin,
		);
		if (!near) continue;
		pixelsOf ??= regionPixels(map);
		const targets = fillAcross(map, strip, pixelsOf(strip.id), reachPx, isWide);
		if (targets) moveInto(map, strip, targets);
	}
}

/**
 * For each pixel of the strip, the wide area of its colour it belongs to across an outline, or null
 * when the strip is not such a fill's edge (see `joinShowingFill`).
 */
function fillAcross(
	map: RegionMap,
	strip: Region,
	pixels: Int32Array,
	reachPx: number,
	isWide: (region: Region) => boolean,
): Map<number, number> | null {
	const { width, height, ids, regions } = map;
	// The 4-neighbours of a pixel, written into one shared array (no list per pixel).
	const around = new Int32Array(4);
	const neighbours = (i: number): Int32Array => {
		const x = i % width;
		around[0] = x > 0 ? i - 1 : -1;
		around[1] = x < width - 1 ? i + 1 : -1;
		around[2] = i >= width ? i - width : -1;
		around[3] = i + width < width * height ? i + width : -1;
		return around;
	};
	const own = (i: number) => ids[i] === strip.id;
	const across = (i: number) => {
		const label = regions[ids[i]].label;
		return label !== background && label !== strip.label;
	};
	// Breadth first from the strip's edge through other colours, each step remembering where it set out.
	const origin = new Map<number, number>();
	const targets = new Map<number, number>();
	let edge = 0;
	let outside = false;
	let frontier: number[] = [];
	for (const p of pixels) {
		let along = false;
		for (const n of neighbours(p)) {
			if (n < 0) {
				outside = true;
				continue;
			}
			const region = regions[ids[n]];
			if (region.label === background) outside = true;
			if (region.label === strip.label && region.id !== strip.id && isWide(region)) return null;
			if (across(n)) {
				along = true;
				if (!origin.has(n)) {
					origin.set(n, p);
					frontier.push(n);
				}
			}
		}
		if (along) edge++;
	}
	for (let step = 1; step <= reachPx && frontier.length > 0; step++) {
		const next: number[] = [];
		for (const i of frontier) {
			const from = origin.get(i)!;
			for (const n of neighbours(i)) {
				if (n < 0) continue;
				const region = regions[ids[n]];
				if (region.label === strip.label && isWide(region)) {
					if (!targets.has(from)) targets.set(from, region.id);
				} else if (step < reachPx && across(n) && !origin.has(n)) {
					origin.set(n, from);
					next.push(n);
				}
			}
		}
		frontier = next;
	}
	if (!outside || edge === 0 || targets.size * 2 <= edge) return null;
	// The rest of the strip joins the area its nearest reached pixel joins.
	let wave = [...targets.keys()];
	while (wave.length > 0) {
		const next: number[] = [];
		for (const p of wave) {
			for (const n of neighbours(p)) {
				if (n >= 0 && own(n) && !targets.has(n)) {
					targets.set(n, targets.get(p)!);
					next.push(n);
				}
			}
		}
		wave = next;
	}
	return targets.size === pixels.length ? targets : null;
}

/** Moves the strip's pixels into the areas chosen for them; the strip is left empty. */
function moveInto(map: RegionMap, strip: Region, targets: Map<number, number>): void {
	const { width, ids, regions } = map;
	for (const [i, id] of targets) {
		const target = regions[id];
		const x = i % width;
		const y = floor(i / width);
		ids[i] = id;
		target.area++;
		target.minX = min(target.minX, x);
		target.minY = min(target.minY, y);
		target.maxX = max(target.maxX, x);
		target.maxY = max(target.maxY, y);
	}
	strip.area = 0;
	strip.label = background;
}
