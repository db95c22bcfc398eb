import sharp from 'sharp';

import { digitise } from '../../../sandbox/digitiser';
import { halfThreadMm } from '../../../sandbox/digitiser/satin';
import { pullCompensationMm, standardDensity } from '../../../sandbox/digitiser/sewing';
import { listFormats, readPattern, writePattern } from '../../../sandbox/engine';
import { measurePattern } from '../../../sandbox/engine/metrics';
import { Command, type Pattern } from '../../../sandbox/engine/pattern';
import {
	artworkRegions,
	blockNearest,
	canvasFrame,
	intersectionOverUnion,
	renderStitches,
} from './support/stitchCoverage';

const { hypot } = Math;

async function svgPng(body: string, width: number, height: number): Promise<Buffer> {
	const svg =
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect ` +
		`width="${width}" height="${height}" fill="#fff"/>${body}</svg>`;
	return sharp(Buffer.from(svg)).png().toBuffer();
}

function stepLength(pattern: Pattern, i: number): number {
	return hypot(pattern.xs[i] - pattern.xs[i - 1], pattern.ys[i] - pattern.ys[i - 1]) / 10;
}

let logo: Pattern;

beforeAll(async () => {
	const png = await svgPng(
		'<circle cx="100" cy="100" r="80" fill="#c01020"/><rect x="200" y="30" width="80" ' +
			'height="140" fill="#203080"/><rect x="20" y="190" width="260" height="6" fill="#107030"/>',
		300,
		200,
	);
	logo = (await digitise(png, { widthMm: 90, colourCount: 4, paletteKey: 'robison-anton' }))
		.pattern;
});

describe('how the digitiser sews', () => {
	it('writes a file in every writable format, which reads back with all its stitches', () => {
		let sewn = 0;
		for (let i = 0; i < logo.length; i++) if (logo.commands[i] === Command.Stitch) sewn++;
		for (const format of listFormats().filter((info) => info.writable)) {
			const { bytes } = writePattern(logo, format.format);
			expect(bytes.length).toBeGreaterThan(100);
			if (!format.readable) continue;
			const back = readPattern(bytes, format.format);
			let stitches = 0;
			for (let i = 0; i < back.length; i++) if (back.commands[i] === Command.Stitch) stitches++;
			expect(stitches).toBeGreaterThanOrEqual(sewn);
		}
	});

	it('ties in after every jump that follows a cut, and ties off before every cut', () => {
		// A cut: a trim, or a colour change (the machine cuts the thread there; no trim is written).
		const { commands } = logo;
		for (let i = 0; i < logo.length; i++) {
			if (commands[i] !== Command.Trim && commands[i] !== Command.ColorChange) continue;
			expect(commands[i - 1]).not.toBe(Command.Trim);
			// Tie-off: the last two stitches before the trim are short, back and forth.
			expect(commands[i - 1]).toBe(Command.Stitch);
			expect(stepLength(logo, i - 1)).toBeLessThanOrEqual(1);
			let next = i + 1;
			while (
				next < logo.length &&
				commands[next] !== Command.Stitch &&
				commands[next] !== Command.End
			)
				next++;
			if (commands[next] === Command.End) continue;
			// Tie-in: the needle goes down where it lands, then two short stitches.
			expect(stepLength(logo, next + 1)).toBeLessThanOrEqual(1);
			expect(stepLength(logo, next + 2)).toBeLessThanOrEqual(1);
		}
	});

	it('cuts before any long jump, so no thread is left dangling across the design', () => {
		let trimmed = true;
		for (let i = 1; i < logo.length; i++) {
			const command = logo.commands[i];
			if (command === Command.Trim || command === Command.ColorChange) trimmed = true;
			if (logo.commands[i] === Command.Stitch) trimmed = false;
			if (logo.commands[i] === Command.Jump && stepLength(logo, i) > 2.5)
				expect(trimmed).toBe(true);
		}
	});

	it('staggers tatami needle holes from row to row', () => {
		// Penetrations of the red circle's top stitching, grouped by row.
		const rows = new Map<number, number[]>();
		let block = 0;
		for (let i = 1; i < logo.length; i++) {
			if (logo.commands[i] === Command.ColorChange) block++;
			if (
				block !== 0 ||
				logo.commands[i] !== Command.Stitch ||
				logo.commands[i - 1] !== Command.Stitch
			)
				continue;
			if (logo.ys[i] !== logo.ys[i - 1]) continue;
			const row = rows.get(logo.ys[i]) ?? [];
			row.push(logo.xs[i]);
			rows.set(logo.ys[i], row);
		}
		const ys = [...rows.keys()].sort((a, b) => a - b);
		let shared = 0;
		let total = 0;
		for (let r = 1; r < ys.length; r++) {
			if (ys[r] - ys[r - 1] > 5) continue;
			const above = new Set(rows.get(ys[r - 1]));
			for (const x of rows.get(ys[r])!) {
				total++;
				if (above.has(x) || above.has(x - 1) || above.has(x + 1)) shared++;
			}
		}
		expect(total).toBeGreaterThan(500);
		expect(shared / total).toBeLessThan(0.2);
	});

	it('sews a narrow bar as a satin column: stitches cross it from edge to edge', async () => {
		const png = await svgPng(
			'<rect x="20" y="97" width="360" height="5" fill="#202020"/>',
			400,
			200,
		);
		const { pattern } = await digitise(png, { widthMm: 90, colourCount: 2 });
		// The bar is 90 mm long and 1.25 mm tall, 1.55 mm with pull compensation: satin stitches run
		// across it, about 1.5 mm each.
		let crossing = 0;
		let stitches = 0;
		for (let i = 1; i < pattern.length; i++) {
			if (pattern.commands[i] !== Command.Stitch || pattern.commands[i - 1] !== Command.Stitch)
				continue;
			stitches++;
			const dy = Math.abs(pattern.ys[i] - pattern.ys[i - 1]) / 10;
			if (dy >= 1.2 && dy <= 1.8) crossing++;
		}
		expect(crossing / stitches).toBeGreaterThan(0.8);
		expect(crossing).toBeGreaterThan(90 / 0.25);
	});

	it('places satin holes half a thread inside both edges, then out by the pull compensation', async () => {
		const png = await svgPng(
			'<rect x="20" y="97" width="360" height="5" fill="#202020"/>',
			400,
			200,
		);
		const { pattern } = await digitise(png, { widthMm: 90, colourCount: 2 });
		// The design is the bar, so a pixel is (90 - 2 x compensation) / 360 mm and the bar is 5 of them.
		const drawnMm = (5 * (90 - 2 * pullCompensationMm)) / 360;
		const crossings: number[] = [];
		for (let i = 1; i < pattern.length; i++) {
			if (pattern.commands[i] !== Command.Stitch || pattern.commands[i - 1] !== Command.Stitch)
				continue;
			const dy = Math.abs(pattern.ys[i] - pattern.ys[i - 1]) / 10;
			if (dy >= drawnMm * 0.8) crossings.push(dy);
		}
		crossings.sort((a, b) => a - b);
		const median = crossings[crossings.length >> 1];
		// The thread covers half its width past each hole, so the column covers what is drawn plus
		// the compensation.
		const holesMm = drawnMm + 2 * (pullCompensationMm - halfThreadMm);
		expect(median).toBeGreaterThanOrEqual(holesMm - 0.1);
		expect(median).toBeLessThanOrEqual(holesMm + 0.1);
	});

	it('ends fill rows half a thread inside both edges, then out by the pull compensation', async () => {
		// A 200 x 80 px fill between two satin bars 352 px apart (centre to centre). At 54 mm the 360 px
		// design is drawn on the digitiser's 0.15 mm working grid one to one, so every edge falls on a pixel edge.
		const png = await svgPng(
			'<rect x="20" y="20" width="8" height="160" fill="#202020"/><rect x="372" y="20" ' +
				'width="8" height="160" fill="#202020"/>' +
				'<rect x="100" y="60" width="200" height="80" fill="#1060c0"/>',
			400,
			200,
		);
		const { pattern } = await digitise(png, { widthMm: 54, colourCount: 3 });
		const fill = blockNearest(pattern, 0x1060c0);
		const bars = blockNearest(pattern, 0x202020);
		// The fill's needle holes by height (rows run along the long side), and the bars' extent.
		const holesByRow = new Map<number, number[]>();
		const barEnds = { left: [Infinity, -Infinity], right: [Infinity, -Infinity] };
		let block = 0;
		for (let i = 0; i < pattern.length; i++) {
			if (pattern.commands[i] === Command.ColorChange) block++;
			if (pattern.commands[i] !== Command.Stitch) continue;
			if (block === bars) {
				const ends = pattern.xs[i] < 0 ? barEnds.left : barEnds.right;
				ends[0] = Math.min(ends[0], pattern.xs[i]);
				ends[1] = Math.max(ends[1], pattern.xs[i]);
			}
			if (block !== fill) continue;
			const row = holesByRow.get(pattern.ys[i]) ?? [];
			row.push(pattern.xs[i] / 10);
			holesByRow.set(pattern.ys[i], row);
		}
		// The bars' middles do not move with compensation, so they give the scale the shapes were drawn at.
		const barsApartMm =
			(barEnds.right[0] + barEnds.right[1] - barEnds.left[0] - barEnds.left[1]) / 20;
		const drawnMm = (200 * barsApartMm) / 352;
		const xs = [...holesByRow.values()].flat();
		const left = Math.min(...xs);
		const right = Math.max(...xs);
		// The thread covers half its width past the last hole, as in satin.
		const holesMm = drawnMm + 2 * (pullCompensationMm - halfThreadMm);
		expect(right - left).toBeGreaterThanOrEqual(holesMm - 0.1);
		expect(right - left).toBeLessThanOrEqual(holesMm + 0.1);
		// Rows turn into each other, the outer end pierced: every other row reaches each edge.
		const rows = [...holesByRow.values()];
		const reaching = (edge: number) =>
			rows.filter((row) => row.some((x) => Math.abs(x - edge) <= 0.1)).length;
		const rowsAcross = 12 / standardDensity.fillSpacingMm;
		expect(reaching(left)).toBeGreaterThan(rowsAcross / 2 - 5);
		expect(reaching(right)).toBeGreaterThan(rowsAcross / 2 - 5);
	});

	it('fills each shape along its own long axis, not one angle for everything', async () => {
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400">
<rect x="40" y="160" width="240" height="60" fill="#1060c0" transform="rotate(30 160 190)"/>
<rect x="330" y="160" width="240" height="60" fill="#d03010" transform="rotate(-60 450 190)"/></svg>`;
		const { pattern } = await digitise(Buffer.from(svg), { widthMm: 100, colourCount: 3 });
		for (const [colour, degrees] of [
			[0x1060c0, 30],
			[0xd03010, -60],
		] as const) {
			const block = blockNearest(pattern, colour);
			// Direction (mod 180) of the long top-stitch steps in that block, weighted by length.
			let sx = 0;
			let sy = 0;
			let current = 0;
			for (let i = 1; i < pattern.length; i++) {
				if (pattern.commands[i] === Command.ColorChange) current++;
				if (
					current !== block ||
					pattern.commands[i] !== Command.Stitch ||
					pattern.commands[i - 1] !== Command.Stitch
				)
					continue;
				const dx = pattern.xs[i] - pattern.xs[i - 1];
				const dy = pattern.ys[i] - pattern.ys[i - 1];
				const length = Math.hypot(dx, dy);
				if (length < 20) continue;
				const doubled = 2 * Math.atan2(dy, dx);
				sx += length * Math.cos(doubled);
				sy += length * Math.sin(doubled);
			}
			const sewnDegrees = (Math.atan2(sy, sx) / 2) * (180 / Math.PI);
			const off = Math.abs(((((sewnDegrees - degrees + 90) % 180) + 180) % 180) - 90);
			expect(off).toBeLessThan(8);
		}
	});

	it(
		'sews separate shapes of one colour nearest first, with one jump into each and none from ' +
			'the middle of a fill',
		async () => {
			const dots = [...Array(12)].map(
				(_, i) =>
					`<circle cx="${50 + (i % 6) * 100}" cy="${i < 6 ? 80 : 220}" r="30" fill="#c00000"/>`,
			);
			const { pattern, metrics } = await digitise(
				Buffer.from(
					`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300">${dots.join('')}</svg>`,
				),
				{
					widthMm: 100,
					colourCount: 2,
				},
			);
			expect(metrics.colourBlocks).toHaveLength(1);
			expect(metrics.colourBlocks[0].jumps).toBeLessThanOrEqual(12);
			expect(metrics.colourBlocks[0].trims).toBeLessThanOrEqual(12);
			// The dots are 100 / 530 x 100 mm apart: visiting them in a snake needs 11 hops of about that.
			const pitchMm = (100 * 100) / 530;
			let jumpedMm = 0;
			for (let i = 1; i < pattern.length; i++)
				if (pattern.commands[i] === Command.Jump) jumpedMm += stepLength(pattern, i);
			expect(jumpedMm).toBeLessThan(11 * pitchMm);
		},
	);

	it('sews the design at the requested width, its height following the artwork', async () => {
		// A full-bleed picture with no plain backdrop: a sky gradient behind a sun, everything is sewn.
		const svg =
			`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
<defs><linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#2050a0"/><stop ` +
			`offset="1" stop-color="#80b0e0"/></linearGradient></defs>
<rect width="400" height="200" fill="url(#sky)"/><circle cx="200" cy="100" r="60" fill="#e0c040"/></svg>`;
		const photo = await sharp(Buffer.from(svg)).jpeg().toBuffer();
		const { pattern } = await digitise(photo, { widthMm: 80, colourCount: 3 });
		const size = measurePattern(pattern);
		expect(size.widthMm).toBeGreaterThan(79);
		expect(size.widthMm).toBeLessThan(81);
		expect(size.heightMm).toBeGreaterThan(39);
		expect(size.heightMm).toBeLessThan(41);
		expect(size.colourCount).toBe(3);
	});

	it('sews hairlines too thin for satin as a short running stitch along them', async () => {
		const png = await svgPng(
			// The filled bar is the widest part, so the design's edges are fill (with pull compensation)
			// as the frame assumes.
			'<path d="M20 250 C 120 20, 250 20, 480 250" fill="none" stroke="#000" ' +
				'stroke-width="2.6"/><rect x="50" y="50" width="80" height="60" fill="#06a"/><rect x="5" ' +
				'y="270" width="490" height="15" fill="#06a"/>',
			500,
			300,
		);
		// The design (not the canvas) is 98 mm wide: 0.2 mm a pixel, so the 2.6 px line is 0.52 mm.
		const { pattern } = await digitise(png, { widthMm: 98, colourCount: 3 });
		const black = blockNearest(pattern, 0x000000);
		expect(pattern.threads[black].name).toBe('Black');
		let block = 0;
		let longest = 0;
		for (let i = 1; i < pattern.length; i++) {
			if (pattern.commands[i] === Command.ColorChange) block++;
			if (
				block === black &&
				pattern.commands[i] === Command.Stitch &&
				pattern.commands[i - 1] === Command.Stitch
			) {
				longest = Math.max(longest, stepLength(pattern, i));
			}
		}
		// 1.4 mm stitches; a loop's closing stub (under half a step) is merged into the stitch before it.
		expect(longest).toBeLessThanOrEqual(1.4 * 1.5 + 0.1);
		const keyColours = [0xffffff, 0x000000, 0x0066aa];
		const frame = canvasFrame(
			await artworkRegions(png, 500, 300, keyColours),
			500,
			300,
			(region) => region > 0,
			98,
		);
		const raster = renderStitches(pattern, frame, 0.25);
		const regions = await artworkRegions(png, raster.width, raster.height, keyColours);
		const line = Array.from(regions, (r) => (r === 1 ? 1 : 0));
		expect(intersectionOverUnion(line, raster.blocks[black])).toBeGreaterThanOrEqual(0.65);
	});
});
