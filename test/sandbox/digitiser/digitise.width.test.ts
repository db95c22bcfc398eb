import sharp from 'sharp';

import { digitise } from '../../../sandbox/digitiser';
import {
	listFormats,
	measurePattern,
	readPattern,
	renderPreview,
	writePattern,
} from '../../../sandbox/engine';
import { Command, type Pattern } from '../../../sandbox/engine/pattern';

/**
 * width_mm is the finished width: the extent of the needle positions in the machine file, as
 * any reader measures it, whatever margins, backdrop or transparency the artwork has.
 */

interface Case {
	name: string;
	bytes: () => Promise<Buffer>;
	widthMm: number;
	colourCount: number;
	/** Width and height of the artwork's design (not its canvas), in any unit. */
	design: [number, number];
}

const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

const cases: Case[] = [
	{
		name: 'two shapes on a transparent background (300 x 200 PNG)',
		bytes: () =>
			png(`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">
<circle cx="100" cy="100" r="60" fill="#c01020"/><rect x="180" y="50" width="80" height="100" fill="#203080"/></svg>`),
		widthMm: 90,
		colourCount: 3,
		design: [220, 120],
	},
	{
		name: 'a green ring on a white backdrop',
		bytes: () =>
			png(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#fff"/>
<circle cx="200" cy="200" r="140" fill="none" stroke="#1a8a3a" stroke-width="40"/></svg>`),
		widthMm: 60,
		colourCount: 3,
		design: [320, 320],
	},
	{
		name: 'a thin outline around the design, inside a white margin',
		bytes: () =>
			png(
				`<svg xmlns="http://www.w3.org/2000/svg" width="500" height="300"><rect width="500" height="300" fill="#fff"/>
<rect x="60" y="50" width="380" height="200" fill="none" stroke="#202020" ` +
					`stroke-width="3"/><circle cx="250" cy="150" r="70" fill="#d04010"/></svg>`,
			),
		widthMm: 100,
		colourCount: 3,
		design: [383, 203],
	},
	{
		name: 'a thin frame along the canvas edge around a white backdrop',
		bytes: () =>
			png(
				`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#fff"/>
<rect x="1" y="1" width="398" height="298" fill="none" stroke="#777" ` +
					`stroke-width="2"/><circle cx="200" cy="150" r="80" fill="#c00000"/><rect x="150" y="60" ` +
					`width="100" height="20" fill="#0040a0"/></svg>`,
			),
		widthMm: 60,
		colourCount: 3,
		design: [160, 170],
	},
	{
		name: 'one-colour artwork with a margin',
		bytes: () =>
			png(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#fff"/>
<path d="M100 300 L200 100 L300 250 L400 80 L500 300 Z" fill="#111"/></svg>`),
		widthMm: 75,
		colourCount: 1,
		design: [400, 220],
	},
	{
		name: 'an SVG badge whose viewBox differs from its width and height',
		bytes: async () =>
			Buffer.from(
				`<svg xmlns="http://www.w3.org/2000/svg" width="500" height="300" viewBox="0 0 100 100">
<rect x="10" y="20" width="80" height="60" rx="10" fill="#123c7a"/><circle cx="50" ` +
					`cy="50" r="20" fill="#f0c020"/></svg>`,
			),
		widthMm: 70,
		colourCount: 3,
		design: [80, 60],
	},
];

/**
 * Steps of the formats' 0.1 mm grid between a measured and the requested width. The issue allows 1% or
 * 0.5 mm; the digitiser fits the needle extent to width_mm on that grid, so the tests hold it to one step.
 */
const gridStepsOff = (measuredMm: number, widthMm: number) =>
	Math.abs(Math.round(measuredMm * 10) - Math.round(widthMm * 10));

/** Bounds of every record (jumps, trims and colour changes too), the way pyembroidery's `bounds()` reads a file. */
function allRecordsWidthMm(pattern: Pattern): number {
	let minX = Infinity;
	let maxX = -Infinity;
	for (let i = 0; i < pattern.length; i++) {
		if (pattern.commands[i] === Command.End && i === pattern.length - 1 && i > 0) continue;
		minX = Math.min(minX, pattern.xs[i]);
		maxX = Math.max(maxX, pattern.xs[i]);
	}
	return (maxX - minX) / 10;
}

const writable = listFormats().filter((format) => format.writable);

describe.each(cases)('$name at $widthMm mm', (artwork) => {
	let pattern: Pattern;
	let metrics: Awaited<ReturnType<typeof digitise>>['metrics'];

	beforeAll(async () => {
		({ pattern, metrics } = await digitise(await artwork.bytes(), {
			widthMm: artwork.widthMm,
			colourCount: artwork.colourCount,
		}));
	});

	it.each(writable.map((format) => [format.format]))(
		'is sewn width_mm wide in %s, read back from the file',
		(format) => {
			const bytes = writePattern(pattern, format).bytes;
			const back = readPattern(bytes, format);
			expect(gridStepsOff(measurePattern(back).widthMm, artwork.widthMm)).toBeLessThanOrEqual(1);
			expect(gridStepsOff(allRecordsWidthMm(back), artwork.widthMm)).toBeLessThanOrEqual(1);
		},
	);

	it("keeps the design's proportions and reports the finished size in its metrics", () => {
		const size = measurePattern(pattern);
		const [designWidth, designHeight] = artwork.design;
		const expectedHeight = (artwork.widthMm * designHeight) / designWidth;
		expect(Math.abs(size.heightMm - expectedHeight)).toBeLessThanOrEqual(0.025 * expectedHeight);
		expect(metrics.requestedWidthMm).toBe(artwork.widthMm);
		expect(gridStepsOff(size.widthMm, artwork.widthMm)).toBeLessThanOrEqual(1);
		expect(metrics.colourBlocks).toHaveLength(size.colourChanges + 1);
		expect(metrics.colourBlocks.reduce((sum, block) => sum + block.jumps, 0)).toBe(size.jumpCount);
		expect(metrics.colourBlocks.reduce((sum, block) => sum + block.trims, 0)).toBe(size.trimCount);
		expect(metrics.colourBlocks.reduce((sum, block) => sum + block.stitches, 0)).toBe(
			size.stitchCount,
		);
		expect(metrics.stitchesPerCm2).toBeGreaterThan(100);
		expect(metrics.stitchesPerCm2).toBeLessThan(1000);
	});

	it('previews the design at its true aspect ratio', async () => {
		const preview = await renderPreview(pattern, { format: 'png', maxSizePx: 600 });
		const { data, info } = await sharp(preview.bytes)
			.ensureAlpha()
			.raw()
			.toBuffer({ resolveWithObject: true });
		let minX = info.width;
		let maxX = -1;
		let minY = info.height;
		let maxY = -1;
		for (let y = 0; y < info.height; y++) {
			for (let x = 0; x < info.width; x++) {
				if (data[(y * info.width + x) * 4 + 3] === 0) continue;
				minX = Math.min(minX, x);
				maxX = Math.max(maxX, x);
				minY = Math.min(minY, y);
				maxY = Math.max(maxY, y);
			}
		}
		const size = measurePattern(pattern);
		const drawn = (maxX + 1 - minX) / (maxY + 1 - minY);
		expect(Math.abs(drawn / (size.widthMm / size.heightMm) - 1)).toBeLessThan(0.03);
	});
});

describe('the sewn width at the edges of what can be sewn', () => {
	it('says when a frame along the edge of the picture was left out of the design', async () => {
		const framed = cases.find((artwork) =>
			artwork.name.startsWith('a thin frame along the canvas edge'),
		)!;
		const { warnings } = await digitise(await framed.bytes(), { widthMm: 60, colourCount: 3 });
		expect(warnings).toContain(
			'A thin frame along the edge of the artwork was left out: it borders the picture, not ' +
				'the design, so it does not count in width_mm.',
		);
	});

	it('meets width_mm when density had to be relaxed for a stitch cap', async () => {
		const bytes = await cases[1].bytes();
		const natural = measurePattern(
			(await digitise(bytes, { widthMm: 60, colourCount: 2 })).pattern,
		).stitchCount;
		const { pattern, warnings } = await digitise(bytes, {
			widthMm: 60,
			colourCount: 2,
			maxStitchCount: Math.round(natural * 0.7),
		});
		expect(warnings.join(' ')).toMatch(/density was reduced/);
		expect(measurePattern(pattern).widthMm).toBe(60);
	});

	it(
		'fails rather than sewing another size when the stitch cap cannot be met, naming the cap ' +
			'and what to change',
		async () => {
			const bytes = await cases[0].bytes();
			await expect(
				digitise(bytes, { widthMm: 90, colourCount: 3, maxStitchCount: 200 }),
			).rejects.toMatchObject({
				code: 'stitch_limit_exceeded',
				message: expect.stringMatching(
					/At 90 mm wide .* more than the maximum of 200; raise maximum_stitch_count or choose a smaller width_mm/,
				),
			});
		},
	);
});

describe('the height that comes with width_mm', () => {
	it('keeps the artwork’s proportions to a twentieth of a millimetre', async () => {
		// A frame of 0.4 mm lines whose middles are 45 x 100 mm apart at 0.1 mm a pixel. The
		// working grid is 0.15 mm a pixel, and its width and height are rounded to whole pixels
		// apart, so a grid pixel is not quite as tall as it is wide (here 0.2% off): each row must be
		// placed by a pixel's own height (before: the frame was sewn 100.2 mm tall).
		const [w, h] = [450, 1000];
		const sides =
			`<rect x="10" y="10" width="${w + 4}" height="4"/>` +
			`<rect x="10" y="${h + 10}" width="${w + 4}" height="4"/>` +
			`<rect x="10" y="10" width="4" height="${h + 4}"/>` +
			`<rect x="${w + 10}" y="10" width="4" height="${h + 4}"/>`;
		const bytes = await png(
			`<svg xmlns="http://www.w3.org/2000/svg" width="${w + 24}" height="${h + 24}">${sides}</svg>`,
		);
		const size = measurePattern((await digitise(bytes, { widthMm: 45, colourCount: 1 })).pattern);
		expect(size.widthMm).toBe(45);
		expect(Math.abs(size.heightMm - 100)).toBeLessThanOrEqual(0.05);
	});
});
