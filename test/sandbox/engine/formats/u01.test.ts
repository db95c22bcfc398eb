import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { u01Format } from '../../../../sandbox/engine/formats/u01';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { fixture } from '../../../support/embroideryFiles';
import { compareEvents, loadFixture, patternEvents, patternOf } from '../support/referenceDecoding';

const read = u01Format.read!;
const write = u01Format.write!;

function records(bytes: Uint8Array): number[][] {
	const list: number[][] = [];
	for (let offset = 0x100; offset + 3 <= bytes.length; offset += 3)
		list.push(Array.from(bytes.subarray(offset, offset + 3)));
	return list;
}

describe('U01 reader', () => {
	it('takes a needle chosen before any stitch as set-up, not as a colour change', () => {
		const header = new Uint8Array(0x100).fill(0x30);
		const body = [
			0xe9, 0, 0, 0xc0, 5, 5, 0xca, 0, 0, 0x88, 0, 0, 0xa7, 0, 0, 0x80, 1, 1, 0xf8, 0, 0,
		];
		const pattern = read(new Uint8Array([...header, ...body]));
		const listed = Array.from({ length: pattern.length }, (_, i) => [
			pattern.xs[i],
			pattern.ys[i],
			pattern.commands[i],
		]);
		expect(listed).toEqual([
			[5, 5, Command.Stitch],
			[5, 5, Command.ColorChange],
			[5, 5, Command.Stop],
			[6, 4, Command.Stitch],
			[6, 4, Command.End],
		]);
	});

	it('rejects a file shorter than its header', () => {
		expect(() => read(new Uint8Array(10))).toThrow(UnreadableSourceError);
	});

	it('refuses a record without the record flag, an unknown code, and records without an end', () => {
		const header = [...new Uint8Array(0x100).fill(0x30)];
		const file = (...body: number[]) => new Uint8Array([...header, ...body]);
		expect(() => read(file(0x80, 1, 1, 0x40, 1, 1, 0xf8, 0, 0))).toThrow(
			/record 2 starts with 0x40/,
		);
		expect(() => read(file(0x80, 1, 1, 0x9f, 1, 1, 0xf8, 0, 0))).toThrow(
			/record 2 starts with 0x9f/,
		);
		expect(() => read(file(0x80, 1, 1, 0x80, 1, 1))).toThrow(/end without their end code/);
		expect(read(file(0x80, 1, 1, 0x2b, 0x99, 0x99)).length).toBe(2);
	});

	it('refuses a machine postfix in the middle of the design: the records after it go on to the end code', () => {
		const star = new Uint8Array(fixture('Star.u01'));
		// A changed byte turns record 1,732's control byte 0x80 into the postfix 0x2b: 68% of the star.
		const stopped = star.slice();
		expect(stopped[5452]).toBe(0x80);
		stopped[5452] = 0x2b;
		expect(() => read(stopped)).toThrow(
			/U01 file is damaged: its records stop at a machine postfix \(0x2b\) at byte 5452, but 817 more/,
		);
	});
});

describe('U01 writer', () => {
	it('sets needle 1 first, a new needle per colour block, trims, stops and the end record', () => {
		const pattern = new Pattern();
		pattern.add(-3, 4, Command.Stitch);
		pattern.add(-3, 4, Command.Trim);
		pattern.add(-3, 4, Command.ColorChange);
		pattern.add(200, 4, Command.Jump);
		pattern.add(200, 4, Command.Stop);
		pattern.add(201, 4, Command.Stitch);
		pattern.add(201, 4, Command.End);
		const { bytes } = write(pattern);
		const list = records(bytes);
		expect(list[0]).toEqual([0xe9, 0, 0]);
		expect(list[1]).toEqual([0xe0, 4, 3]);
		expect(list[2][0] & 0x1f).toBe(0x07);
		expect(list[3][0] & 0x1f).toBe(0x0a);
		expect(list.at(-1)).toEqual([0xf8, 0, 0]);
		const back = read(bytes);
		expect(
			compareEvents(
				patternEvents(pattern, { collapseMoves: true }),
				patternEvents(back, { collapseMoves: true }),
			).differences,
		).toEqual([]);
		expect(countCommands(back, Command.Stop)).toBe(1);
	});

	it('keeps a colour change that comes before the first stitch', () => {
		const pattern = patternOf([
			[0, 0, Command.ColorChange],
			[0, 0, Command.Stitch],
			[10, 10, Command.Stitch],
			[10, 10, Command.ColorChange],
			[20, 10, Command.Stitch],
			[20, 10, Command.End],
		]);
		const { bytes } = write(pattern);
		// Needle 1 sets the machine up, needle 2 is the change before anything is sewn.
		expect(records(bytes)[0]).toEqual([0xe9, 0, 0]);
		expect(records(bytes)[1][0] & 0x1f).toBe(0x0a);
		const back = read(bytes);
		expect(Array.from(back.commands.subarray(0, back.length))).toEqual([
			Command.ColorChange,
			Command.Stitch,
			Command.Stitch,
			Command.ColorChange,
			Command.Stitch,
			Command.End,
		]);
	});

	it('round-trips Star.u01', () => {
		const original = read(loadFixture('Star.u01').bytes);
		const back = read(write(original).bytes);
		expect(compareEvents(patternEvents(original), patternEvents(back)).differences).toEqual([]);
	});
});
