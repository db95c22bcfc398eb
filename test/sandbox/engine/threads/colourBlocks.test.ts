import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { snapToChart } from '../../../../sandbox/engine/threads/chartSnapping';
import {
	repeatedThreadsAsStops,
	threadBlocks,
} from '../../../../sandbox/engine/threads/colourBlocks';
import { pecThreadChart } from '../../../../sandbox/engine/threads/pecThreads';

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
