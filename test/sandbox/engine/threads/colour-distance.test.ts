import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { snapToChart } from '../../../../sandbox/engine/threads/chart-snapping';
import {
	repeatedThreadsAsStops,
	threadBlocks,
} from '../../../../sandbox/engine/threads/colour-blocks';
import { deltaE2000, rgbToLab } from '../../../../sandbox/engine/threads/colour-distance';
import { jefThreadChart } from '../../../../sandbox/engine/threads/jef-threads';
import { pecThreadChart } from '../../../../sandbox/engine/threads/pec-threads';

describe('colour distance', () => {
	it('converts sRGB to CIE Lab (D65)', () => {
		const close = (lab: readonly number[], expected: number[]) =>
			lab.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 1));
		close(rgbToLab(0xffffff), [100, 0, 0]);
		close(rgbToLab(0x000000), [0, 0, 0]);
		close(rgbToLab(0xff0000), [53.24, 80.09, 67.2]);
		close(rgbToLab(0x0000ff), [32.3, 79.19, -107.86]);
	});

	it("matches Sharma, Wu and Dalal's published CIEDE2000 test pairs", () => {
		const pairs: [number[], number[], number][] = [
			[[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
			[[50, 3.1571, -77.2803], [50, 0, -82.7485], 2.8615],
			[[50, 2.8361, -74.02], [50, 0, -82.7485], 3.4412],
			[[50, 0, 0], [50, -1, 2], 2.3669],
			[[50, 2.5, 0], [73, 25, -18], 27.1492],
			[[50, 2.5, 0], [61, -5, 29], 22.8977],
			[[50, 2.5, 0], [56, -27, -3], 31.903],
			[[50, 2.5, 0], [58, 24, 15], 19.4535],
			[[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
		];
		for (const [first, second, expected] of pairs) {
			expect(
				deltaE2000(first as [number, number, number], second as [number, number, number]),
			).toBeCloseTo(expected, 3);
			expect(
				deltaE2000(second as [number, number, number], first as [number, number, number]),
			).toBeCloseTo(expected, 3);
		}
	});
});

describe('thread charts', () => {
	it("holds Brother's 64 PEC colours under codes 1-64", () => {
		expect(pecThreadChart.threads.map((thread) => thread.code)).toEqual(
			Array.from({ length: 64 }, (_, i) => i + 1),
		);
		expect(pecThreadChart.find(5)).toEqual({
			code: 5,
			color: 0xed171f,
			name: 'Red',
			catalogNumber: '5',
		});
		expect(pecThreadChart.find(29)?.name).toBe('White');
		expect(pecThreadChart.toThread(pecThreadChart.find(20)!)).toEqual({
			color: 0x000000,
			name: 'Black',
			catalogNumber: '20',
			brand: 'Brother',
		});
	});

	it("holds Janome's 78 JEF colours under codes 1-78 with Janome catalogue numbers", () => {
		expect(jefThreadChart.threads.map((thread) => thread.code)).toEqual(
			Array.from({ length: 78 }, (_, i) => i + 1),
		);
		expect(jefThreadChart.find(33)).toEqual({
			code: 33,
			color: 0xe3311f,
			name: 'Burnt Orange',
			catalogNumber: '235',
		});
		expect(jefThreadChart.find(51)?.name).toBe('Ivory White');
		expect(new Set(jefThreadChart.threads.map((thread) => thread.catalogNumber)).size).toBe(78);
	});

	it('finds an exact chart colour, the perceptually nearest one otherwise, and skips excluded codes', () => {
		expect(pecThreadChart.nearest(0xed171f).code).toBe(5);
		expect(pecThreadChart.nearest(0xf0f0f0).code).toBe(29);
		expect(pecThreadChart.nearest(0x050505).name).toBe('Black');
		expect(jefThreadChart.nearest(0xfe0000).name).toBe('Red');
		const second = pecThreadChart.nearest(0xed171f, new Set([5]));
		expect(second.code).not.toBe(5);
		expect(second.name).toMatch(/Red|Carmine|Vermilion/);
	});

	it('prefers the perceptually closer thread where plain RGB distance disagrees', () => {
		// Plain RGB distance would pick Dark Gray, Silver and Pewter for these three tinted colours.
		expect(pecThreadChart.nearest(0x1a1a40).name).toBe('Prussian Blue');
		expect(pecThreadChart.nearest(0xa0a0c0).name).toBe('Lavender');
		expect(pecThreadChart.nearest(0x406080).name).toBe('Electric Blue');
	});
});

function pattern(commands: Command[], colours: number[]): Pattern {
	const result = new Pattern();
	commands.forEach((command, i) => result.add(i, 0, command));
	result.threads = colours.map((color) => ({ color }));
	return result;
}

describe('colour blocks and chart snapping', () => {
	const S = Command.Stitch;

	it('lists one block per colour change and per stop, repeating the thread after a stop', () => {
		const blocks = threadBlocks(
			pattern([S, Command.Stop, S, Command.ColorChange, S, Command.End], [0x111111, 0x222222]),
		);
		expect(blocks.threads.map((thread) => thread.color)).toEqual([0x111111, 0x111111, 0x222222]);
		expect(blocks.startsAfterStop).toEqual([false, true, false]);
		expect(blocks.defaulted).toEqual([false, false, false]);
	});

	it('gives blocks without a thread distinct default colours and marks them', () => {
		const blocks = threadBlocks(
			pattern([S, Command.ColorChange, S, Command.ColorChange, S], [0x111111]),
		);
		expect(blocks.defaulted).toEqual([false, true, true]);
		expect(blocks.threads[1].color).not.toBe(blocks.threads[2].color);
	});

	it('snaps to the chart, repeats the code after a stop and never after a colour change', () => {
		const blocks = threadBlocks(
			pattern([S, Command.Stop, S, Command.ColorChange, S, Command.End], [0xee1111, 0xef1010]),
		);
		const { codes, warnings } = snapToChart(blocks, pecThreadChart, 'PEC');
		expect(codes[0]).toBe(5);
		expect(codes[1]).toBe(5);
		expect(codes[2]).not.toBe(5);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			new RegExp(
				"^PEC stores only Brother's 64-colour thread chart; colours were " +
					'snapped to the nearest: #ee1111 → Red \\(5, #ed171f\\)',
			),
		);
	});

	it('says nothing when every colour is already a chart colour', () => {
		const blocks = threadBlocks(pattern([S, Command.ColorChange, S], [0xed171f, 0xf0f0f0]));
		expect(snapToChart(blocks, pecThreadChart, 'PES').warnings).toEqual([]);
	});

	it('reads a repeated thread after a colour change as a stop and drops the repeat', () => {
		const read = pattern(
			[S, Command.ColorChange, S, Command.ColorChange, S, Command.End],
			[0x111111, 0x111111, 0x333333],
		);
		repeatedThreadsAsStops(read);
		expect([...read.commands.subarray(0, read.length)]).toEqual([
			S,
			Command.Stop,
			S,
			Command.ColorChange,
			S,
			Command.End,
		]);
		expect(read.threads.map((thread) => thread.color)).toEqual([0x111111, 0x333333]);
	});
});
