import sharp from 'sharp';

import { digitise } from '../../digitiser';
import { readPattern, renderPreviewPair, writePattern } from '../../engine';

/**
 * A fresh engine process runs its code cold: V8 first interprets what it later compiles, and the
 * preview's watermark is drawn on first use. burmi1's artwork took 2.5-3.3 s in a fresh process
 * and 1.3-1.9 s in a warm one. So before a process takes jobs it digitises a small artwork of its
 * own, writes and reads the result and draws its previews, about 2 s of CPU once per process.
 */
export async function warmUp(): Promise<void> {
	const artwork = await warmUpArtwork();
	let pattern = (await digitise(artwork, { widthMm: warmUpWidthMm, colourCount: 4 })).pattern;
	// The second pass runs the code V8 compiled during the first one.
	pattern = (await digitise(artwork, { widthMm: warmUpWidthMm, colourCount: 4 })).pattern;
	readPattern(Buffer.from(writePattern(pattern, 'dst').bytes), 'dst');
	await renderPreviewPair(pattern, { format: 'png' });
}

const warmUpWidthMm = 60;
const widthPx = 600;
const heightPx = 420;
type Colour = readonly [number, number, number];
const red: Colour = [230, 0, 0];
const blue: Colour = [0, 100, 200];
const green: Colour = [0, 150, 60];
const black: Colour = [0, 0, 0];

/**
 * A PNG with a part of each kind the digitiser sews differently: a disc (fill), a ring (a closed
 * satin column), a Y of bands (a satin that forks), a thin line (running stitch), rows of two
 * threads (an open fill), a drawn open zigzag (an open satin read off the artwork) and specks
 * (cleaned up), on a transparent ground.
 */
export function warmUpArtwork(): Promise<Buffer> {
	const rgba = new Uint8Array(widthPx * heightPx * 4);
	const paint = (x: number, y: number, [r, g, b]: Colour) => {
		const i = (y * widthPx + x) * 4;
		rgba.set([r, g, b, 255], i);
	};
	const arms: Array<[number, number, number, number]> = [
		[420, 200, 420, 380],
		[420, 200, 340, 60],
		[420, 200, 520, 60],
	];
	for (let y = 0; y < heightPx; y++) {
		for (let x = 0; x < widthPx; x++) {
			const fromCentre = Math.hypot(x - 150, y - 150);
			if (fromCentre < 70) paint(x, y, red);
			else if (fromCentre > 95 && fromCentre < 130) paint(x, y, blue);
			if (arms.some((arm) => distanceToSegment(x, y, arm) < 15)) paint(x, y, green);
			if (distanceToSegment(x, y, [20, 400, 580, 330]) < 2.5) paint(x, y, black);
		}
	}
	// Rows of red with black slits between (sewn as an open fill), and specks to clean up.
	for (let y = 330; y < 400; y++) {
		for (let x = 200; x < 290; x++) paint(x, y, (y - 330) % 6 < 4 ? red : black);
	}
	for (let k = 0; k < 12; k++) paint(20 + 9 * k, 300 + (k % 3), green);
	// The zigzag: strokes 4 px wide from rail to rail, a rail 7 px further on each time.
	for (let k = 0; k < 40; k++) {
		const [top, bottom] = k % 2 ? [250, 300] : [300, 250];
		const stroke: [number, number, number, number] = [300 + 7 * k, top, 304 + 7 * k, bottom];
		for (let y = 248; y <= 302; y++) {
			for (let x = stroke[0] - 3; x <= stroke[2] + 3; x++)
				if (distanceToSegment(x, y, stroke) < 2) paint(x, y, blue);
		}
	}
	return sharp(rgba, { raw: { width: widthPx, height: heightPx, channels: 4 } })
		.png()
		.toBuffer();
}

function distanceToSegment(
	x: number,
	y: number,
	[ax, ay, bx, by]: readonly [number, number, number, number],
): number {
	const vx = bx - ax;
	const vy = by - ay;
	const t = Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)));
	return Math.hypot(x - ax - t * vx, y - ay - t * vy);
}
