import { stxFormat } from '../../../../sandbox/engine/formats/stx';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';

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

	it('reads a file cut short up to its last whole record and warns, with the count STX1.10 headers declare', () => {
		const star = fixture('Star.STX');
		const whole = read(star);
		expect(whole.warnings).toEqual([]);
		// Cut in the middle of a record: Star.STX (STX1.00) declares no count.
		const midRecord = read(star.subarray(0, 5001));
		expect(midRecord.warnings).toEqual([
			expect.stringMatching(
				/^The file ends early \(in the middle of a record\): read [\d,]+ stitches up to its last whole record/,
			),
		]);
		// STX1.10 writers declare the records at byte 0x20 (Embroidermodder's samples: 2 to 15 more than held).
		const declaring = fixture('Star.STX');
		declaring.writeUInt32LE(2520, 0x20);
		expect(read(declaring).warnings).toEqual([]);
		const half = read(declaring.subarray(0, 610 + 2400));
		expect(half.warnings).toHaveLength(1);
		expect(half.warnings[0]).toMatch(
			/^The file ends early \(with fewer records than its header declares\): read [\d,]+ stitches, /,
		);
		expect(half.warnings[0]).toMatch(/, [\d,]+ of the 2,520 records its header declares\./);
	});

	it('refuses stitch records that are not EXP records, naming where they start', () => {
		const bytes = fixture('Star.STX');
		bytes[0xd93] = 0x33;
		expect(() => read(bytes)).toThrow(
			/STX file is damaged: its stitch records at byte 610.*control code 0x33/,
		);
	});
});

describe('STX colours', () => {
	/** Star.STX's palette starts at 362, its colour list (big-endian places) at 410. */
	const palette = 362;
	const colourList = 410;

	it("reads each colour block's colour from the palette place its colour list gives, 6 bits a channel", () => {
		const bytes = fixture('Star.STX');
		bytes.set([0x39, 0x39, 0x39], palette + 3 * 5);
		bytes.writeUInt16BE(5, colourList + 2);
		expect(read(bytes).threads).toEqual([{ color: 0xff0000 }, { color: 0xe7e7e7 }]);
	});

	it('refuses tables not laid out so (a header over another file): a palette of another size, a place past it', () => {
		const past = fixture('Star.STX');
		past.writeUInt16BE(16, colourList);
		expect(() => read(past)).toThrow(/its colour list names a colour past the palette's 16/);
		const longer = fixture('Star.STX');
		longer.writeUInt32LE(colourList + 3, 0x10);
		expect(() => read(longer)).toThrow(/its palette takes 51 bytes, not the 48 of 16 colours/);
	});

	it('reads a colour list of 120 entries whose last 20 are text, as real STX files have', () => {
		const star = fixture('Star.STX');
		// Real STX files (Embroidermodder's samples, STX1.10) fill 100 entries and leave text such as "~~~~ 25 14".
		const text = Buffer.from('~~~~~ ~25~ 14~  3~49~6~~~~~~~~~~~~~~~~\r\n', 'latin1');
		const longer = Buffer.concat([star.subarray(0, 610), text, star.subarray(610)]);
		longer.writeUInt32LE(610 + text.length, 0x14);
		expect(read(longer).length).toBe(read(star).length);
		// A stitch offset moved into the stitch records leaves bytes in the list that are not text.
		const moved = fixture('Star.STX');
		moved.writeUInt32LE(610 + 64, 0x14);
		expect(() => read(moved)).toThrow(
			/its colour list ends in byte 0x[0-9a-f]+ at \d+, not in text/,
		);
		// Within the first 100 entries, a place past the palette is still refused.
		longer.writeUInt16BE(0x7e7e, colourList + 2 * 99);
		expect(() => read(longer)).toThrow(/its colour list names a colour past the palette's 16/);
	});
});
