import sharp from 'sharp';

import { digitise } from '../../../sandbox/digitiser';
import { Command } from '../../../sandbox/engine/pattern';
import { readPattern, writePattern } from '../../../sandbox/engine';
import { renderPreview } from '../../../sandbox/engine/preview';
import {
	artworkRegions,
	blockNearest,
	canvasFrame,
	intersectionOverUnion,
	renderStitches,
	stitchStats,
	type Frame,
} from './support/stitchCoverage';

/** Preview scale for the comparisons: a quarter millimetre a pixel. */
const previewMm = 0.25;

interface Artwork {
	bytes: Buffer;
	widthPx: number;
	heightPx: number;
	/** Flat colours of the artwork; index 0 is its plain background when `background` is set. */
	keyColours: number[];
	background: boolean;
}

const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
<rect width="400" height="300" fill="#ffffff"/>
<circle cx="110" cy="130" r="85" fill="#d01010"/>
<rect x="220" y="40" width="150" height="110" fill="#1040b0"/>
<path d="M220 280 L300 170 L380 280 Z" fill="#109030"/>
</svg>`;
const logoColours = [0xffffff, 0xd01010, 0x1040b0, 0x109030];

async function pngOf(svg: string): Promise<Buffer> {
	return sharp(Buffer.from(svg)).png().toBuffer();
}

/** IoU of each artwork colour region against the block sewn in the nearest thread. */
async function regionScores(
	artwork: Artwork,
	widthMm: number,
	colourCount: number,
	paletteKey?: string,
) {
	const { pattern, warnings } = await digitise(artwork.bytes, { widthMm, colourCount, paletteKey });
	const frame = await frameOf(artwork, widthMm);
	const raster = renderStitches(pattern, frame, previewMm);
	const regions = await artworkRegions(
		artwork.bytes,
		raster.width,
		raster.height,
		artwork.keyColours,
	);
	const scores = artwork.keyColours.map((colour, k) => {
		if (artwork.background && k === 0) return NaN;
		const block = raster.blocks[blockNearest(pattern, colour)];
		return intersectionOverUnion(
			Array.from(regions, (r) => (r === k ? 1 : 0)),
			block,
		);
	});
	return {
		pattern,
		warnings,
		scores: scores.filter((s) => !Number.isNaN(s)),
		raster,
		regions,
		frame,
	};
}

/** Where the artwork's canvas lies under the sewn design: its design (not its margins) is `widthMm` wide. */
async function frameOf(artwork: Artwork, widthMm: number): Promise<Frame> {
	const regions = await artworkRegions(
		artwork.bytes,
		artwork.widthPx,
		artwork.heightPx,
		artwork.keyColours,
	);
	const firstDesignColour = artwork.background ? 1 : 0;
	return canvasFrame(
		regions,
		artwork.widthPx,
		artwork.heightPx,
		(region) => region >= firstDesignColour,
		widthMm,
	);
}

/** The flat logo digitised once at 100 mm with Isacord threads, shared by the checks that only read it. */
let logoPng: Buffer;
let logoResult: Awaited<ReturnType<typeof regionScores>>;

beforeAll(async () => {
	logoPng = await pngOf(logo);
	const artwork = {
		bytes: logoPng,
		widthPx: 400,
		heightPx: 300,
		keyColours: logoColours,
		background: true,
	};
	logoResult = await regionScores(artwork, 100, 4, 'isacord');
});

describe('digitised designs look like their artwork', () => {
	it('sews each colour of a flat PNG logo over its own region (IoU >= 0.8)', () => {
		const { pattern, scores } = logoResult;
		expect(pattern.threads).toHaveLength(3);
		for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.8);
		expect(stitchStats(pattern).colourChanges).toBe(2);
	});

	it("matches the artwork's regions in the engine's own rendered preview (IoU >= 0.8)", async () => {
		const { pattern } = logoResult;
		const preview = await renderPreview(pattern, { format: 'png', maxSizePx: 400 });
		const { data, info } = await sharp(preview.bytes)
			.ensureAlpha()
			.raw()
			.toBuffer({ resolveWithObject: true });
		const box = contentBox(info.width, info.height, (i) => data[i * 4 + 3] > 0);
		const regions = await artworkRegions(logoPng, 400, 300, logoColours);
		const artBox = contentBox(400, 300, (i) => regions[i] > 0);
		// Lay the artwork over the preview by their content boxes (the preview adds padding and scales).
		const artworkAt = (x: number, y: number) => {
			const ax = Math.floor(
				artBox.minX +
					((x - box.minX + 0.5) / (box.maxX - box.minX + 1)) * (artBox.maxX - artBox.minX + 1),
			);
			const ay = Math.floor(
				artBox.minY +
					((y - box.minY + 0.5) / (box.maxY - box.minY + 1)) * (artBox.maxY - artBox.minY + 1),
			);
			return regions[ay * 400 + ax];
		};
		for (let k = 1; k < logoColours.length; k++) {
			const block = blockNearest(pattern, logoColours[k]);
			const sewn: number[] = [];
			const drawn: number[] = [];
			for (let y = box.minY; y <= box.maxY; y++) {
				for (let x = box.minX; x <= box.maxX; x++) {
					const i = y * info.width + x;
					const opaque = data[i * 4 + 3] > 0;
					const colour = (data[i * 4] << 16) | (data[i * 4 + 1] << 8) | data[i * 4 + 2];
					drawn.push(opaque && blockNearest(pattern, colour) === block ? 1 : 0);
					sewn.push(artworkAt(x, y) === k ? 1 : 0);
				}
			}
			expect(intersectionOverUnion(sewn, drawn)).toBeGreaterThanOrEqual(0.8);
		}
	});

	it('reads SVG artwork directly, rasterised for the requested width', async () => {
		const artwork = {
			bytes: Buffer.from(logo),
			widthPx: 400,
			heightPx: 300,
			keyColours: logoColours,
			background: true,
		};
		const { pattern, scores } = await regionScores(artwork, 60, 4, 'madeira');
		expect(
			pattern.threads.every((thread) => thread.brand === 'Madeira' && thread.catalogNumber),
		).toBe(true);
		for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.8);
	});

	it('sews lettering, including strokes thin enough for satin', async () => {
		const text = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="220">
<rect width="600" height="220" fill="#ffffff"/>
<text x="20" y="110" font-size="110" font-weight="bold" font-family="sans-serif" fill="#101010">STITCH</text>
<text x="20" y="190" font-size="44" font-family="sans-serif" fill="#101010">small text here</text>
</svg>`;
		const artwork = {
			bytes: await pngOf(text),
			widthPx: 600,
			heightPx: 220,
			keyColours: [0xffffff, 0x101010],
			background: true,
		};
		const { pattern, scores } = await regionScores(artwork, 120, 2);
		expect(pattern.threads).toHaveLength(1);
		expect(scores[0]).toBeGreaterThanOrEqual(0.8);
	});

	it('keeps a transparent background unstitched', async () => {
		const shapes = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">
<circle cx="150" cy="150" r="120" fill="#f0b020"/>
<rect x="100" y="100" width="100" height="100" fill="#602080"/>
</svg>`;
		const artwork = {
			bytes: await pngOf(shapes),
			widthPx: 300,
			heightPx: 300,
			keyColours: [0xf0b020, 0x602080],
			background: false,
		};
		const { scores, raster, regions } = await regionScores(artwork, 80, 4);
		for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.8);
		let outside = 0;
		let sewn = 0;
		for (let i = 0; i < regions.length; i++) {
			const covered = raster.blocks.some((block) => block[i]);
			if (covered) sewn++;
			if (covered && regions[i] === -1) outside++;
		}
		expect(outside / sewn).toBeLessThan(0.05);
	});

	it('reduces a noisy photo to the colour limit and still follows its shapes', async () => {
		const flat = await sharp(Buffer.from(logo)).removeAlpha().raw().toBuffer();
		const noisy = Buffer.from(flat);
		let seed = 12345;
		const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
		for (let i = 0; i < noisy.length; i++) {
			const noise = (random() + random() + random() - 1.5) * 40;
			noisy[i] = Math.max(0, Math.min(255, Math.round(noisy[i] + noise)));
		}
		const jpeg = await sharp(noisy, { raw: { width: 400, height: 300, channels: 3 } })
			.jpeg({ quality: 80 })
			.toBuffer();
		const artwork = {
			bytes: jpeg,
			widthPx: 400,
			heightPx: 300,
			keyColours: logoColours,
			background: true,
		};
		const { pattern, scores } = await regionScores(artwork, 100, 3);
		expect(pattern.threads.length).toBeLessThanOrEqual(3);
		for (const score of scores) expect(score).toBeGreaterThanOrEqual(0.8);
	});

	it('bands a gradient into at most the requested colours and says colours were merged', async () => {
		const gradient =
			`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
<defs><linearGradient id="g"><stop offset="0" stop-color="#1030c0"/><stop offset="1" ` +
			`stop-color="#f0e020"/></linearGradient></defs>
<rect width="400" height="200" fill="#ffffff"/><rect x="20" y="20" width="360" height="160" rx="20" fill="url(#g)"/>
</svg>`;
		const bytes = await pngOf(gradient);
		const { pattern, warnings } = await digitise(bytes, { widthMm: 100, colourCount: 3 });
		expect(pattern.threads.length).toBeGreaterThanOrEqual(2);
		expect(pattern.threads.length).toBeLessThanOrEqual(3);
		expect(warnings.join(' ')).toMatch(/more colours than 3 threads/);
		const frame = await frameOf(
			{
				bytes,
				widthPx: 400,
				heightPx: 200,
				keyColours: [0xffffff, 0x1030c0, 0xf0e020, 0x808070],
				background: true,
			},
			100,
		);
		const raster = renderStitches(pattern, frame, previewMm);
		const regions = await artworkRegions(
			bytes,
			raster.width,
			raster.height,
			[0xffffff, 0x1030c0, 0xf0e020, 0x808070],
		);
		const union = raster.blocks[0].map((_, i) => (raster.blocks.some((block) => block[i]) ? 1 : 0));
		expect(
			intersectionOverUnion(
				Array.from(regions, (r) => (r > 0 ? 1 : 0)),
				union,
			),
		).toBeGreaterThanOrEqual(0.8);
	});
});

describe('digitised designs can be sewn', () => {
	it('keeps every stitch within the 4 mm fill limit and DST within its 12.1 mm step', () => {
		const { pattern } = logoResult;
		expect(stitchStats(pattern).longestStitchMm).toBeLessThanOrEqual(4.01);
		const dst = readPattern(writePattern(pattern, 'dst').bytes, 'dst');
		const { longestStitchMm } = stitchStats(dst);
		expect(longestStitchMm).toBeLessThanOrEqual(12.1);
		expect(stitchStats(dst).stitches).toBeGreaterThanOrEqual(stitchStats(pattern).stitches);
	});

	it('never runs a stitch over bare fabric (joins and travel stay on the design)', () => {
		const { pattern, raster, regions, frame } = logoResult;
		const { width, height } = raster;
		// The design's area grown by half a millimetre: thread width and edge rounding.
		const near = new Uint8Array(width * height);
		for (let y = 0; y < height; y++) {
			for (let x = 0; x < width; x++) {
				if (regions[y * width + x] <= 0) continue;
				for (let dy = -2; dy <= 2; dy++) {
					for (let dx = -2; dx <= 2; dx++) {
						const nx = x + dx;
						const ny = y + dy;
						if (nx >= 0 && ny >= 0 && nx < width && ny < height) near[ny * width + nx] = 1;
					}
				}
			}
		}
		let offDesign = 0;
		for (let i = 1; i < pattern.length; i++) {
			if (pattern.commands[i] !== Command.Stitch || pattern.commands[i - 1] !== Command.Stitch)
				continue;
			for (let t = 0; t <= 1; t += 0.1) {
				const xMm =
					(pattern.xs[i - 1] + (pattern.xs[i] - pattern.xs[i - 1]) * t) / 10 + frame.originXMm;
				const yMm =
					(pattern.ys[i - 1] + (pattern.ys[i] - pattern.ys[i - 1]) * t) / 10 + frame.originYMm;
				const px = Math.min(width - 1, Math.floor(xMm / previewMm));
				const py = Math.min(height - 1, Math.floor(yMm / previewMm));
				if (!near[py * width + px]) offDesign++;
			}
		}
		expect(offDesign).toBe(0);
	});

	it('stays within normal fill density', () => {
		const { pattern, regions } = logoResult;
		let covered = 0;
		for (const region of regions) if (region > 0) covered++;
		const artworkAreaMm2 = covered * previewMm * previewMm;
		const perMm2 = stitchStats(pattern).stitches / artworkAreaMm2;
		expect(perMm2).toBeGreaterThan(0.5);
		expect(perMm2).toBeLessThan(3);
		expect(densestSquareMillimetre(pattern)).toBeLessThanOrEqual(30);
	});

	it('relaxes density to respect the stitch cap, and says so', async () => {
		const natural = stitchStats(logoResult.pattern).stitches;
		const cap = Math.round(natural * 0.75);
		const options = { widthMm: 100, colourCount: 4, paletteKey: 'isacord', maxStitchCount: cap };
		const { pattern, warnings } = await digitise(logoPng, options);
		expect(stitchStats(pattern).stitches).toBeLessThanOrEqual(cap);
		expect(warnings.join(' ')).toMatch(/density was reduced/);
	});

	it('fails with stitch_limit_exceeded when even the lightest density is over the cap', async () => {
		await expect(
			digitise(logoPng, { widthMm: 100, colourCount: 4, maxStitchCount: 100 }),
		).rejects.toMatchObject({
			code: 'stitch_limit_exceeded',
		});
	});

	it('gives the same design for the same artwork', async () => {
		const first = logoResult.pattern;
		const second = (
			await digitise(logoPng, { widthMm: 100, colourCount: 4, paletteKey: 'isacord' })
		).pattern;
		expect(Array.from(second.xs.subarray(0, second.length))).toEqual(
			Array.from(first.xs.subarray(0, first.length)),
		);
		expect(second.threads).toEqual(first.threads);
	});
});

/** Most needle holes in any 1 mm square: piles of holes cut the fabric. */
function densestSquareMillimetre(
	pattern: import('../../../sandbox/engine/pattern').Pattern,
): number {
	const counts = new Map<number, number>();
	let most = 0;
	for (let i = 0; i < pattern.length; i++) {
		if (pattern.commands[i] !== 0) continue;
		const key = Math.floor(pattern.xs[i] / 10) * 100000 + Math.floor(pattern.ys[i] / 10);
		const count = (counts.get(key) ?? 0) + 1;
		counts.set(key, count);
		most = Math.max(most, count);
	}
	return most;
}

function contentBox(width: number, height: number, filled: (i: number) => boolean) {
	const box = { minX: width, minY: height, maxX: -1, maxY: -1 };
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if (!filled(y * width + x)) continue;
			box.minX = Math.min(box.minX, x);
			box.maxX = Math.max(box.maxX, x);
			box.minY = Math.min(box.minY, y);
			box.maxY = Math.max(box.maxY, y);
		}
	}
	return box;
}
