import { stxFormat } from '../../sandbox/engine/formats/stx';
import { detectFormat } from '../../sandbox/engine/registry';
import { fixture } from '../support/embroideryFiles';

const read = stxFormat.read!;

describe('STX reader', () => {
	it('reads the EXP records its header points to, and is never taken for EXP', () => {
		const bytes = fixture('Star.STX');
		expect(bytes.readUInt32LE(0x14)).toBe(610);
		expect(read(bytes).length).toBe(2518);
		for (const name of ['Star.STX', 'design', 'design.exp'])
			expect([name, detectFormat(bytes, name)]).toEqual([name, 'stx']);
	});

	it('refuses table offsets out of order or outside the file', () => {
		const outside = fixture('Star.STX');
		outside.writeUInt32LE(outside.length, 0x14);
		expect(stxFormat.detect!(outside)).toBe(false);
		expect(() => read(outside)).toThrow(/STX file is damaged: it does not start with "STX"/);
		const unordered = fixture('Star.STX');
		unordered.writeUInt32LE(700, 0x10);
		expect(stxFormat.detect!(unordered)).toBe(false);
	});

	it('refuses stitch records that are not EXP records, naming where they start', () => {
		const bytes = fixture('Star.STX');
		bytes[0xd93] = 0x33;
		expect(() => read(bytes)).toThrow(
			/STX file is damaged: its stitch records at byte 610.*control code 0x33/,
		);
		expect(() => read(fixture('Star.STX').subarray(0, 0x1000 + 1))).toThrow(/STX file is damaged/);
	});
});
