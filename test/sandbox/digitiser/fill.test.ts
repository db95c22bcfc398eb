import { sewFill, underlapMm } from '../../../sandbox/digitiser/fill';
import { Needle } from '../../../sandbox/digitiser/needle';
import { background, findRegions } from '../../../sandbox/digitiser/regions';
import {
	pullCompensationMm,
	RegionSewing,
	standardDensity,
} from '../../../sandbox/digitiser/sewing';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import { segmentsByBlock, sew, shapePng } from './support/shapes';
import { blockNearest } from './support/stitchCoverage';

describe('tatami fill', () => {
	it('turns from row to row without short stitches along the edge', async () => {
		// An ellipse 40 x 20 mm (0.1 mm a pixel): long rows along it, curved ends. A join stitch
		// between rows would make one short stitch a row, about 8% of them.
		const png = await shapePng(
			'<ellipse cx="210" cy="110" rx="200" ry="100" fill="#1060c0"/>',
			420,
			220,
		);
		const [fill] = segmentsByBlock(await sew(png, 40, 1));
		const short = fill.filter((s) => s.length < 1);
		// Tie-ins and tie-offs (0.7 mm) and a few rows at the tips are all that may be short.
		expect(fill.length).toBeGreaterThan(600);
		expect(short.length / fill.length).toBeLessThanOrEqual(0.02);
	});

	it('leaves no stub at the row ends of a point', async () => {
		// A five-pointed star 40 mm wide (0.1 mm a pixel): whichever way the rows run, they cross
		// some points and shorten to nothing there, where piercing both ends of every row made
		// stitches under 1 mm (1.3% of them).
		const png = await shapePng(
			'<path d="M210 10 L260 150 L410 150 L290 240 L340 390 L210 300 L80 390 L130 240 ' +
				'L10 150 L160 150 Z" fill="#1060c0"/>',
			420,
			400,
		);
		const [fill] = segmentsByBlock(await sew(png, 40, 1));
		// The needle's path less its tie-in and tie-off (two stitches each, 0.7 mm).
		const sewn = fill.slice(2, -2);
		expect(sewn.length).toBeGreaterThan(1000);
		const stubs = sewn.filter((s) => s.length < 1);
		expect(stubs.length / sewn.length).toBeLessThanOrEqual(0.006);
	});

	it('runs under the neighbour sewn after it, and no further', async () => {
		// A 30 x 30 mm blue square (sewn first: the broader shape) with a 10 x 20 mm red one
		// beside it on the right, 0.1 mm a pixel; the design is 40 mm wide.
		const png = await shapePng(
			'<rect x="10" y="10" width="300" height="300" fill="#1060c0"/>' +
				'<rect x="310" y="60" width="100" height="200" fill="#c01010"/>',
			420,
			320,
		);
		const pattern = await sew(png, 40, 2);
		const blocks = segmentsByBlock(pattern);
		const blue = blocks[blockNearest(pattern, 0x1060c0)];
		const red = blocks[blockNearest(pattern, 0xc01010)];
		expect(blockNearest(pattern, 0x1060c0)).toBe(0);
		const xs = (block: typeof blue) => block.flatMap((s) => [s.ax, s.bx]);
		const blueLeft = Math.min(...xs(blue));
		const blueRight = Math.max(...xs(blue));
		const redRight = Math.max(...xs(red));
		// The squares meet three quarters of the way across (both outer edges carry the same
		// compensation). Beyond the band and compensation: half a pixel and the 0.1 mm design unit.
		const meet = blueLeft + 0.75 * (redRight - blueLeft);
		expect(blueRight - meet).toBeGreaterThanOrEqual(underlapMm - 0.3);
		expect(blueRight - meet).toBeLessThanOrEqual(underlapMm + pullCompensationMm + 0.3);
	});

	it('pierces the row at a tip on the left or right however short, so the shape keeps its width', () => {
		// A shape 0.1 mm a pixel, taller than wide, so its rows run up and down: pointed at one side,
		// flat at the other. Towards the tip the rows shorten to stubs under 1 mm, which the turns leave
		// out; at the tip that left the needle extent across, the design's width (see `fitToWidth`), a
		// row short.
		const size = 300;
		for (const [halfWidth, tipShare, side] of [
			[93, 0.8, 1],
			[70, 0.8, 1],
			[93, 0.5, 1],
			[93, 0.8, -1],
			[70, 0.8, -1],
		]) {
			const labels = new Uint8Array(size * size).fill(background);
			for (let y = 0; y < size; y++) {
				for (let d = 0; d <= 2 * halfWidth; d++) {
					const height = 140 * Math.min(1, d / (2 * halfWidth) / tipShare);
					const x = side > 0 ? 150 - halfWidth + d : 150 + halfWidth - d;
					if (Math.abs(y - 150) < height) labels[y * size + x] = 0;
				}
			}
			const map = findRegions(labels, size, size);
			const region = map.regions.find((r) => r.label === 0)!;
			const pattern = new Pattern(4096);
			const rules = { maxStitchMm: 4, travelStitchMm: 2.5, trimAfterMm: 2.5, tieMm: 0.7 };
			const needle = new Needle(pattern, 0.1, size / 2, size / 2, rules);
			const covered = new Uint8Array(size * size);
			sewFill(new RegionSewing(needle, map, region.id, covered), standardDensity);
			// The needle's reach towards the tip, from the middle, 0.1 mm units.
			let reach = 0;
			for (let i = 0; i < pattern.length; i++) {
				if (pattern.commands[i] === Command.Stitch)
					reach = Math.max(reach, -side * needle.exact.xs[i]);
			}
			// The rows lie a spacing apart wherever the scan puts them, and rows under half a millimetre
			// are slivers, dropped: the row nearest the tip lies within a spacing of the first column
			// that tall.
			const columnHeight = (x: number) => labels.filter((l, i) => l === 0 && i % size === x).length;
			let column = side > 0 ? region.minX : region.maxX;
			while (columnHeight(column) < 5) column += side;
			const columnReach = -side * (column + 0.5 - size / 2);
			expect(columnReach - reach).toBeLessThan(standardDensity.fillSpacingMm * 10);
		}
	});
});
