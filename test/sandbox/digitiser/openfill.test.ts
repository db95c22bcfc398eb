import sharp from 'sharp';

import { digitise } from '../../../sandbox/digitiser';
import type { Pattern } from '../../../sandbox/engine/pattern';
import { angleTo, segmentsByBlock, trimsInsideBlocks } from './support/shapes';
import {
	artworkRegions,
	blockNearest,
	centredFrame,
	renderStitches,
} from './support/stitchCoverage';

const red = 0xe60000;
const black = 0x000000;
const green = 0x00a03c;
/** Source pixels a millimetre: finer than the working grid, as the comparison's artwork is. */
const pxPerMm = 10;
const widthMm = 30;
const heightMm = 20;
/** Bare canvas round the rectangle, so red is the design and not the backdrop. */
const marginMm = 2;
const canvasWidthPx = (widthMm + 2 * marginMm) * pxPerMm;
const canvasHeightPx = (heightMm + 2 * marginMm) * pxPerMm;
/**
 * The width asked for (the needle's extent), so the rectangle is sewn at the artwork's own scale:
 * fill rows end half a thread (0.2 mm) inside an edge and reach out by the pull compensation
 * (0.15 mm), 0.05 mm short of each side.
 */
const sewnWidthMm = widthMm - 0.1;

/**
 * A red rectangle on a transparent canvas, cut by black vertical slits `slitPx` source pixels wide
 * (0.2 mm unless told) at its `slitXs` columns. Evenly spaced, they are the stripes an open red
 * fill over black draws. `lying` are green rectangles on it (x0, y0, x1, y1, mm from its corner).
 */
function slittedPng(slitXs: number[], slitPx = 2, lying: number[][] = []): Promise<Buffer> {
	const width = canvasWidthPx;
	const height = canvasHeightPx;
	const margin = marginMm * pxPerMm;
	const rgba = Buffer.alloc(width * height * 4);
	const slit = new Set(
		slitXs.flatMap((x) => Array.from({ length: slitPx }, (_, k) => x + margin + k)),
	);
	for (let y = margin; y < height - margin; y++) {
		for (let x = margin; x < width - margin; x++) {
			const mx = (x - margin) / pxPerMm;
			const my = (y - margin) / pxPerMm;
			const on = lying.some(([x0, y0, x1, y1]) => mx >= x0 && mx < x1 && my >= y0 && my < y1);
			const colour = on ? green : slit.has(x) ? black : red;
			rgba.writeUInt32BE(((colour << 8) | 0xff) >>> 0, (y * width + x) * 4);
		}
	}
	return sharp(rgba, { raw: { width, height, channels: 4 } })
		.png()
		.toBuffer();
}

/** The stitches drawn as 0.4 mm threads over the canvas at 0.1 mm, one layer a colour block. */
function render(pattern: Pattern): Uint8Array[] {
	const frame = centredFrame(canvasWidthPx / pxPerMm, canvasHeightPx / pxPerMm);
	return renderStitches(pattern, frame, 1 / pxPerMm).blocks;
}

/** The share of the rectangle's middle (2 mm in from each side) where `holds` holds of a canvas pixel. */
function middleShare(holds: (i: number) => boolean): number {
	const margin = (marginMm + 2) * pxPerMm;
	let count = 0;
	let counted = 0;
	for (let y = margin; y < canvasHeightPx - margin; y++) {
		for (let x = margin; x < canvasWidthPx - margin; x++) {
			counted++;
			if (holds(y * canvasWidthPx + x)) count++;
		}
	}
	return count / counted;
}

/** Where the thread on top is the artwork's colour (red or black), as a share of the rectangle's middle. */
async function colourAgreement(png: Buffer, pattern: Pattern): Promise<number> {
	const artwork = await artworkRegions(png, canvasWidthPx, canvasHeightPx, [red, black]);
	const blocks = render(pattern);
	const redBlock = blockNearest(pattern, red);
	const blackBlock = blockNearest(pattern, black);
	// The block sewn last lies on top.
	const order = [redBlock, blackBlock].sort((a, b) => b - a);
	return middleShare((i) => {
		const shown = order.find((block) => blocks[block][i]);
		const colour = shown === undefined ? -1 : shown === redBlock ? 0 : 1;
		return colour === artwork[i];
	});
}

/** Where black thread lies, on top or under red, as a share of the rectangle's middle. */
function blackCoverage(pattern: Pattern): number {
	const blackThread = render(pattern)[blockNearest(pattern, black)];
	return middleShare((i) => blackThread[i] === 1);
}

describe('stripes of two colours in the artwork', () => {
	it('are sewn as open rows over a fill of the colour between them', async () => {
		// Slits every millimetre at columns 4-5: red stripes 0.8 mm wide, black 0.2 mm.
		const png = await slittedPng(Array.from({ length: widthMm }, (_, k) => k * pxPerMm + 4));
		const { pattern } = await digitise(png, { widthMm: sewnWidthMm, colourCount: 2 });
		const blackBlock = blockNearest(pattern, black);
		const redBlock = blockNearest(pattern, red);
		// The colour between the stripes is sewn first, under them all.
		expect(blackBlock).toBeLessThan(redBlock);
		expect(blackCoverage(pattern)).toBeGreaterThan(0.95);
		// The red rows run along the slits (up and down), not across them.
		const rows = segmentsByBlock(pattern)[redBlock].filter((s) => s.length >= 1);
		const along = rows.filter((s) => angleTo(s, 0, 1) < 5);
		expect(along.length / rows.length).toBeGreaterThan(0.9);
		// And lie between the slits: one solid red fill would be right on 80% of the rectangle, these
		// rows are on 93% (they are within 0.1 mm of the slits' middles; half a period off, 60%).
		expect(await colourAgreement(png, pattern)).toBeGreaterThan(0.9);
	});

	it('are read when each slit is as wide as a thread, three pixels of the working grid', async () => {
		// Slits 0.4 mm wide every 1.2 mm: on the 0.15 mm working grid each is two or three pixels.
		const slitXs = Array.from(
			{ length: widthMm / 1.2 },
			(_, k) => Math.round(k * 1.2 * pxPerMm) + 4,
		);
		const png = await slittedPng(slitXs, 4);
		const { pattern } = await digitise(png, { widthMm: sewnWidthMm, colourCount: 2 });
		expect(blockNearest(pattern, black)).toBeLessThan(blockNearest(pattern, red));
		expect(blackCoverage(pattern)).toBeGreaterThan(0.95);
		// One solid red fill would be right on two thirds of the rectangle.
		expect(await colourAgreement(png, pattern)).toBeGreaterThan(0.85);
	});

	it('are sewn as one solid fill when the slits do not repeat evenly', async () => {
		// As many slits, each moved from its even place by 0-0.7 mm: no rows could follow them.
		const moves = [
			0, 5, 2, 7, 1, 6, 3, 0, 4, 7, 2, 5, 1, 6, 0, 3, 7, 2, 4, 6, 1, 5, 0, 7, 3, 2, 6, 4, 1, 5,
		];
		const uneven = moves.map((move, k) => k * pxPerMm + move);
		const png = await slittedPng(uneven);
		const { pattern } = await digitise(png, { widthMm: sewnWidthMm, colourCount: 2 });
		// Black is sewn where its slits are, not as a fill under the whole rectangle.
		expect(blackCoverage(pattern)).toBeLessThan(0.5);
	});

	it('are sewn before a shape that lies on them, so the pieces of their rows travel under it', async () => {
		// A green tree on the stripes: a trunk 2 mm wide and four branches 1.5 mm wide, two to each side.
		// The rows are cut into pieces in the pockets between the branches; sewn after the tree, the
		// needle jumped and trimmed between them three times, sewn first it travels under the tree.
		const tree = [
			[14, 2, 16, 18],
			[6, 5, 14, 6.5],
			[16, 8, 24, 9.5],
			[6, 11, 14, 12.5],
			[16, 14, 24, 15.5],
		];
		const png = await slittedPng(
			Array.from({ length: widthMm }, (_, k) => k * pxPerMm + 4),
			2,
			tree,
		);
		const { pattern } = await digitise(png, { widthMm: sewnWidthMm, colourCount: 3 });
		const order = [black, red, green].map((colour) => blockNearest(pattern, colour));
		expect(order).toEqual([0, 1, 2]);
		expect(trimsInsideBlocks(pattern).reduce((sum, trims) => sum + trims, 0)).toBeLessThanOrEqual(
			1,
		);
	});
});
