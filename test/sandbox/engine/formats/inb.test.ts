import { inbFormat } from '../../../../sandbox/engine/formats/inb';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

const read = inbFormat.read!;
const records = 0x2000;

describe('INB reader', () => {
	it("sews Star.DST's needle path", () => {
		const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
		const actual = needlePath(patternEvents(read(fixture('Star.inb'))));
		expect(pointsMatched(expected, actual, 1)).toBe(expected.length);
	});

	it('refuses a record without exactly one flag of each sign pair', () => {
		for (const flags of [0x00, 0xd0, 0x70, 0x80, 0x10]) {
			const bytes = fixture('Star.inb');
			bytes[records + 3 * 100 + 2] = flags;
			expect(() => read(bytes)).toThrow(
				/INB file is damaged: the record at byte 8492 has sign flags/,
			);
		}
	});

	it('refuses an unknown action, an end record before the last, and a last record that is not the end', () => {
		const unknown = fixture('Star.inb');
		unknown[records + 3 * 100 + 2] = 0x98;
		expect(() => read(unknown)).toThrow(/action 8, which INB lacks/);
		const early = fixture('Star.inb');
		early[records + 3 * 100 + 2] = 0x94;
		expect(() => read(early)).toThrow(/end record at byte 8492 is not the last/);
		const cut = fixture('Star.inb').subarray(0, records + 3 * 200);
		expect(inbFormat.detect!(cut)).toBe(false);
		expect(() => read(cut)).toThrow(/last record is not the end record/);
		expect(() => read(fixture('Star.inb').subarray(0, records + 301))).toThrow(
			/whole 3-byte records/,
		);
	});

	it('reads an end record with its sign flags clear, as some writers leave it, but not one that moves', () => {
		const clear = fixture('Star.inb');
		clear[clear.length - 1] = 0x04;
		expect(read(clear).length).toBe(2552);
		const moving = fixture('Star.inb');
		moving[moving.length - 3] = 5;
		expect(() => read(moving)).toThrow(/end record moves the needle/);
	});

	it('is recognised by content alone, and a name saying another format is refused', () => {
		const bytes = fixture('Star.inb');
		expect(detectFormat(bytes)).toBe('inb');
		expect(detectFormat(bytes, 'design.dst')).toBeNull();
	});
});
