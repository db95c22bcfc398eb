import sharp from 'sharp';

import { digitise } from '../../../../sandbox/digitiser';
import { Command, type Pattern } from '../../../../sandbox/engine/pattern';

/** One stitch of a colour block: from the needle's last hole to the next, in millimetres. */
export interface Segment {
	ax: number;
	ay: number;
	bx: number;
	by: number;
	length: number;
}

/** Artwork for the engine's shape tests: SVG shapes on a transparent canvas, as PNG. */
export async function shapePng(body: string, width: number, height: number): Promise<Buffer> {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
	return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Digitises artwork at a width with the generic palette. */
export async function sew(png: Buffer, widthMm: number, colourCount: number): Promise<Pattern> {
	return (await digitise(png, { widthMm, colourCount })).pattern;
}

/** The needle's stitches (stitch after stitch, no jumps) in each colour block, in millimetres. */
export function segmentsByBlock(pattern: Pattern): Segment[][] {
	const blocks: Segment[][] = [[]];
	for (let i = 1; i < pattern.length; i++) {
		if (pattern.commands[i] === Command.ColorChange) blocks.push([]);
		if (pattern.commands[i] !== Command.Stitch || pattern.commands[i - 1] !== Command.Stitch)
			continue;
		const ax = pattern.xs[i - 1] / 10;
		const ay = pattern.ys[i - 1] / 10;
		const bx = pattern.xs[i] / 10;
		const by = pattern.ys[i] / 10;
		blocks[blocks.length - 1].push({ ax, ay, bx, by, length: Math.hypot(bx - ax, by - ay) });
	}
	return blocks;
}

/** Angle in degrees (0 to 90) between a stitch and a direction. */
export function angleTo(segment: Segment, dx: number, dy: number): number {
	const sx = segment.bx - segment.ax;
	const sy = segment.by - segment.ay;
	const cos = Math.abs(sx * dx + sy * dy) / (Math.hypot(sx, sy) * Math.hypot(dx, dy));
	return (Math.acos(Math.min(1, cos)) * 180) / Math.PI;
}

/** Trims in each colour block, not counting the one that ends the block. */
export function trimsInsideBlocks(pattern: Pattern): number[] {
	const trims: number[] = [0];
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (command === Command.ColorChange) trims.push(0);
		if (command !== Command.Trim) continue;
		let next = i + 1;
		while (next < pattern.length && pattern.commands[next] === Command.Trim) next++;
		const ends =
			next >= pattern.length ||
			pattern.commands[next] === Command.ColorChange ||
			pattern.commands[next] === Command.End;
		if (!ends) trims[trims.length - 1]++;
	}
	return trims;
}

/** Root mean square distance of points from the straight line fitted through them (least squares). */
export function straightnessMm(points: Array<[number, number]>): number {
	const n = points.length;
	const mx = points.reduce((s, [x]) => s + x, 0) / n;
	const my = points.reduce((s, [, y]) => s + y, 0) / n;
	let sxx = 0;
	let sxy = 0;
	for (const [x, y] of points) {
		sxx += (x - mx) ** 2;
		sxy += (x - mx) * (y - my);
	}
	const slope = sxy / sxx;
	const squares = points.map(([x, y]) => (y - my - slope * (x - mx)) ** 2);
	return Math.sqrt(squares.reduce((s, d) => s + d, 0) / n);
}

/**
 * Four bands `depthPx` deep, each in its own colour, rising or falling 2-5 mm over 60 mm when drawn
 * 1,200 pixels long at 0.05 mm a pixel (a third of the 0.15 mm working grid), `pitchPx` apart from
 * `firstY` down: crisp edges, so the artwork stays flat.
 */
export function slantedBandsPng(depthPx: number, pitchPx: number, firstY: number): Promise<Buffer> {
	const rises = [60, 100, -80, 40];
	const colours = ['#000000', '#e60000', '#0064c8', '#00a000'];
	const body = rises
		.map((rise, k) => {
			const y = firstY + pitchPx * k;
			return (
				`<polygon shape-rendering="crispEdges" fill="${colours[k]}" ` +
				`points="20,${y} 1220,${y - rise} 1220,${y - rise + depthPx} 20,${y + depthPx}"/>`
			);
		})
		.join('');
	return shapePng(body, 1240, firstY + pitchPx * 4);
}

/** The root mean square of several root mean squares, each over as many points. */
export function pooledMm(values: number[]): number {
	return Math.sqrt(values.reduce((sum, value) => sum + value * value, 0) / values.length);
}

/** The box around a block's needle holes, in millimetres. */
export function boxOf(segments: Segment[]) {
	const xs = segments.flatMap((s) => [s.ax, s.bx]);
	const ys = segments.flatMap((s) => [s.ay, s.by]);
	return {
		minX: Math.min(...xs),
		maxX: Math.max(...xs),
		minY: Math.min(...ys),
		maxY: Math.max(...ys),
	};
}
