import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { xxxFormat } from '../../../../sandbox/engine/formats/xxx';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { compareEvents, loadFixture, patternEvents } from '../support/referenceDecoding';

const read = xxxFormat.read!;
const write = xxxFormat.write!;

describe('XXX reader', () => {
	it('rejects a file shorter than its header', () => {
		expect(() => read(new Uint8Array(40))).toThrow(UnreadableSourceError);
	});

	it('refuses a header not led by zeros, an unknown control code and stitches without the end record', () => {
		const header = new Uint8Array(0x100);
		const file = (...body: number[]) => new Uint8Array([...header, ...body]);
		// 0x0A-0x17 pick a needle: a colour change, as pyembroidery reads them.
		const needlePicked = read(file(5, 5, 0x7f, 0x0a, 0, 0, 5, 5, 0x7f, 0x7f, 0, 0));
		expect(countCommands(needlePicked, Command.ColorChange)).toBe(1);
		expect(() => read(file(5, 5, 0x7f, 0x33, 0, 0, 0x7f, 0x7f, 0, 0))).toThrow(
			/control code 0x33 at byte 258 is not XXX's/,
		);
		expect(() => read(file(5, 5, 5, 5))).toThrow(/without the end record/);
		const labelled = file(5, 5, 0x7f, 0x7f, 0, 0);
		labelled[3] = 0x41;
		expect(() => read(labelled)).toThrow(/23 zero bytes/);
	});
});

describe('XXX writer', () => {
	it('writes long jumps as 16-bit moves, trims, colour changes, the end offset and the colour table', () => {
		const pattern = new Pattern();
		pattern.add(10, 10, Command.Stitch);
		pattern.add(10, 10, Command.Trim);
		pattern.add(2000, -1500, Command.Jump);
		pattern.add(2010, -1500, Command.Stitch);
		pattern.add(2010, -1500, Command.ColorChange);
		pattern.add(2000, -1490, Command.Stitch);
		pattern.add(2000, -1490, Command.End);
		pattern.threads = [{ color: 0x123456, name: 'Navy' }, { color: 0xabcdef }];
		const { bytes } = write(pattern);
		const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		expect(view.getUint16(0x27, true)).toBe(2);
		const endOffset = view.getUint32(0xfc, true);
		expect([bytes[endOffset], bytes[endOffset + 1]]).toEqual([0x7f, 0x7f]);
		expect(Array.from(bytes.subarray(0x100 + 2, 0x100 + 2 + 4 + 5))).toEqual([
			0x7f, 0x03, 0, 0, 0x7d, 0xc6, 0x07, 0xe6, 0x05,
		]);
		const back = read(bytes);
		expect(back.threads).toEqual([{ color: 0x123456 }, { color: 0xabcdef }]);
		expect(countCommands(back, Command.Trim)).toBe(1);
		expect(compareEvents(patternEvents(pattern), patternEvents(back)).differences).toEqual([]);
	});

	it('writes default colours for blocks the design names none for, and says so', () => {
		const pattern = new Pattern();
		pattern.add(1, 1, Command.Stitch);
		pattern.add(1, 1, Command.ColorChange);
		pattern.add(2, 1, Command.Stitch);
		const { bytes, warnings } = write(pattern);
		expect(read(bytes).threads).toHaveLength(2);
		expect(warnings.join(' ')).toMatch(/default colours/);
	});

	it('round-trips Star.XXX with its colours', () => {
		const original = read(loadFixture('Star.XXX').bytes);
		const back = read(write(original).bytes);
		expect(compareEvents(patternEvents(original), patternEvents(back)).differences).toEqual([]);
		expect(back.threads).toEqual(original.threads);
	});
});
