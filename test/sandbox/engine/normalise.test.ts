import {
	RelativePatternBuilder,
	colourBlocks,
	countCommands,
	normaliseForWriter,
	patternBounds,
	stepCount,
} from '../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import { patternOf } from './support/referenceDecoding';

function entries(pattern: Pattern): number[][] {
	return Array.from({ length: pattern.length }, (_, i) => [
		pattern.xs[i],
		pattern.ys[i],
		pattern.commands[i],
	]);
}

describe('stepCount', () => {
	it('counts the records a move needs on its longer axis', () => {
		expect(stepCount(0, 0, 121)).toBe(1);
		expect(stepCount(121, -121, 121)).toBe(1);
		expect(stepCount(122, 0, 121)).toBe(2);
		expect(stepCount(-10, 500, 121)).toBe(5);
	});
});

describe('normaliseForWriter', () => {
	const limits = { maxStitch: 100, maxJump: 50, label: 'TEST' };

	it('splits long stitches and jumps into equal steps that end exactly on the target', () => {
		const source = patternOf([
			[250, 0, Command.Stitch],
			[250, 120, Command.Jump],
		]);
		const { pattern, warnings } = normaliseForWriter(source, limits);
		expect(entries(pattern)).toEqual([
			[83, 0, Command.Stitch],
			[167, 0, Command.Stitch],
			[250, 0, Command.Stitch],
			[250, 40, Command.Jump],
			[250, 80, Command.Jump],
			[250, 120, Command.Jump],
			[250, 120, Command.End],
		]);
		expect(warnings).toEqual([
			'1 stitch(es) longer than TEST allows (10 mm) were split into shorter stitches.',
			"1 long jump(s) were split into TEST's shorter jump records.",
		]);
		expect(source.length).toBe(2);
	});

	it('moves to a trim, stop or colour change that sits elsewhere before doing it, and stops at End', () => {
		const source = patternOf([
			[10, 10, Command.Stitch],
			[20, 10, Command.Trim],
			[20, 10, Command.Trim],
			[20, 10, Command.Stitch],
			[20, 30, Command.ColorChange],
			[20, 30, Command.End],
			[99, 99, Command.Stitch],
		]);
		const { pattern } = normaliseForWriter(source, limits);
		expect(entries(pattern)).toEqual([
			[10, 10, Command.Stitch],
			[20, 10, Command.Jump],
			[20, 10, Command.Trim],
			[20, 10, Command.Stitch],
			[20, 30, Command.Jump],
			[20, 30, Command.ColorChange],
			[20, 30, Command.End],
		]);
	});

	it('writes trims as zero-length jumps and stops as colour changes when the format asks', () => {
		const source = patternOf([
			[5, 5, Command.Stitch],
			[5, 5, Command.Trim],
			[5, 5, Command.Stop],
			[6, 5, Command.Stitch],
			[6, 5, Command.ColorChange],
			[7, 5, Command.Stitch],
		]);
		source.threads = [{ color: 1 }, { color: 2 }, { color: 3 }];
		const { pattern, warnings } = normaliseForWriter(source, {
			...limits,
			trimAsJumps: 3,
			stopAsColourChange: true,
		});
		expect(entries(pattern).map((entry) => entry[2])).toEqual([
			Command.Stitch,
			Command.Jump,
			Command.Jump,
			Command.Jump,
			Command.ColorChange,
			Command.Stitch,
			Command.ColorChange,
			Command.Stitch,
			Command.End,
		]);
		// The stop's block repeats thread 1; the extra thread listed past the last block is kept.
		expect(pattern.threads.map((thread) => thread.color)).toEqual([1, 1, 2, 3]);
		expect(warnings).toEqual(['TEST has no stop code: 1 stop(s) were written as colour changes.']);
	});

	it('gives an empty design a lone End', () => {
		expect(entries(normaliseForWriter(new Pattern(), limits).pattern)).toEqual([
			[0, 0, Command.End],
		]);
	});
});

describe('colour blocks, bounds and counts', () => {
	const pattern = patternOf([
		[-5, 3, Command.Stitch],
		[40, -7, Command.Jump],
		[40, -7, Command.ColorChange],
		[12, 9, Command.Stitch],
		[500, 500, Command.End],
	]);
	pattern.threads = [{ color: 0xff0000 }];

	it('cuts the pattern at colour changes and pairs each block with its thread', () => {
		expect(colourBlocks(pattern)).toEqual([
			{ start: 0, end: 2, thread: { color: 0xff0000 } },
			{ start: 3, end: 5, thread: undefined },
		]);
	});

	it('bounds stitches and jumps only', () => {
		expect(patternBounds(pattern)).toEqual({ minX: -5, minY: -7, maxX: 40, maxY: 9 });
		expect(patternBounds(new Pattern())).toEqual({ minX: 0, minY: 0, maxX: 0, maxY: 0 });
		expect(countCommands(pattern, Command.Stitch)).toBe(2);
	});
});

describe('RelativePatternBuilder', () => {
	it('drops zero-length jumps and trims before anything is sewn, and ends with End', () => {
		const builder = new RelativePatternBuilder();
		builder.trim();
		builder.jump(0, 0);
		builder.jump(5, -5);
		builder.stitch(1, 1);
		builder.trim();
		builder.trim();
		builder.colourChange();
		builder.trim();
		builder.stop();
		expect(entries(builder.finish())).toEqual([
			[5, -5, Command.Jump],
			[6, -4, Command.Stitch],
			[6, -4, Command.Trim],
			[6, -4, Command.ColorChange],
			[6, -4, Command.Stop],
			[6, -4, Command.End],
		]);
	});

	it('inserts a trim before jumps already read, once something was sewn', () => {
		const builder = new RelativePatternBuilder(2);
		builder.trimBefore(0, 0, 0);
		builder.stitch(3, 0);
		const runStart = builder.pattern.length;
		builder.jump(10, 0);
		builder.jump(10, 0);
		builder.trimBefore(runStart, 3, 0);
		builder.trimBefore(runStart, 3, 0);
		expect(entries(builder.finish())).toEqual([
			[3, 0, Command.Stitch],
			[3, 0, Command.Trim],
			[13, 0, Command.Jump],
			[23, 0, Command.Jump],
			[23, 0, Command.End],
		]);
	});
});
