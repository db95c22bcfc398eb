import { expFormat } from '../../sandbox/engine/formats/exp';
import { UnreadableSourceError } from '../../sandbox/engine/errors';
import { countCommands } from '../../sandbox/engine/normalise';
import { Command, Pattern } from '../../sandbox/engine/pattern';
import {
	compareEvents,
	expControlRecords,
	loadFixture,
	patternEvents,
} from './support/referenceDecoding';

const read = expFormat.read!;
const write = expFormat.write!;

describe('EXP reader', () => {
	it('reads a trim, a colour change with its move, and stops at an unknown control', () => {
		const bytes = new Uint8Array([
			0x05, 0xfb, 0x80, 0x80, 0x07, 0x00, 0x80, 0x01, 0x0a, 0x00, 0x01, 0x01, 0x80, 0x33, 0, 0,
			0x01, 0x01,
		]);
		const pattern = read(bytes);
		const listed = Array.from({ length: pattern.length }, (_, i) => [
			pattern.xs[i],
			pattern.ys[i],
			pattern.commands[i],
		]);
		expect(listed).toEqual([
			[5, 5, Command.Stitch],
			[5, 5, Command.Trim],
			[5, 5, Command.ColorChange],
			[15, 5, Command.Jump],
			[16, 4, Command.Stitch],
			[16, 4, Command.End],
		]);
	});

	it('rejects an empty file', () => {
		expect(() => read(new Uint8Array(0))).toThrow(UnreadableSourceError);
	});
});

describe('EXP writer', () => {
	it('writes stitches, jumps, trims and colour changes in Melco records', () => {
		const pattern = new Pattern();
		pattern.add(10, -10, Command.Stitch);
		pattern.add(10, -10, Command.Trim);
		pattern.add(300, -10, Command.Jump);
		pattern.add(300, -10, Command.ColorChange);
		pattern.add(200, 0, Command.Stitch);
		pattern.add(200, 0, Command.End);
		pattern.threads = [{ color: 0xff0000 }];
		const { bytes, warnings } = write(pattern);
		expect(Array.from(bytes.subarray(0, 6))).toEqual([10, 10, 0x80, 0x80, 0x07, 0x00]);
		// 290 across needs three jump records of at most 127.
		expect(expControlRecords(bytes, 0x04)).toBe(3);
		expect(expControlRecords(bytes, 0x01)).toBe(1);
		expect(warnings.join(' ')).toMatch(/no thread colours/);
		const back = read(bytes);
		expect(
			compareEvents(
				patternEvents(pattern, { collapseMoves: true }),
				patternEvents(back, { collapseMoves: true }),
			).differences,
		).toEqual([]);
		expect(countCommands(back, Command.Trim)).toBe(1);
	});

	it('round-trips Star.EXP without moving a needle position', () => {
		const original = read(loadFixture('Star.EXP').bytes);
		const back = read(write(original).bytes);
		expect(compareEvents(patternEvents(original), patternEvents(back)).differences).toEqual([]);
	});
});
