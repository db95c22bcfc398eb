/**
 * KSM beyond the shared reader table: Star.KSM against Star.DST, the control codes on a file built from
 * the documented layout, and the strictness a format without a magic needs.
 */
import { looksLikeKsm, readKsm } from '../../../../sandbox/engine/formats/ksmReader';
import { Command } from '../../../../sandbox/engine/pattern';
import { needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

/** A KSM file: the 512-byte header, then `[y size, x size, control]` records. */
function ksmFile(records: Array<[number, number, number]>): Uint8Array {
	return new Uint8Array([...new Array(0x200).fill(0), ...records.flat()]);
}

const entriesOf = (bytes: Uint8Array) => {
	const pattern = readKsm(bytes);
	return Array.from({ length: pattern.length }, (_, i) => [
		pattern.xs[i],
		pattern.ys[i],
		pattern.commands[i],
	]);
};

describe('KSM reader', () => {
	it('puts the needle everywhere Star.DST does, in order', () => {
		const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
		const actual = needlePath(patternEvents(readKsm(loadFixture('Star.ksm').bytes)));
		expect(actual.length).toBe(expected.length);
		expect(pointsMatched(expected, actual, 0)).toBe(expected.length);
	});

	it('reads trims, moves until sewing resumes, needle changes, stops and the end', () => {
		const bytes = ksmFile([
			[0, 0, 0x80 | 0x0b], // needle 1 before sewing: the first colour, no change
			[0, 0, 0x80 | 0x19], // sew (after a needle change, moves are jumps until this)
			[10, 20, 0x80 | 0x20], // y down 1 mm, x right 2 mm: a stitch
			[5, 5, 0x80 | 0x40 | 0x17], // a trim, then this move (x left, y up) is a jump
			[30, 0, 0x80 | 0x20], // still a jump
			[0, 0, 0x80 | 0x18], // sew again
			[1, 1, 0x80 | 0x1c], // a stitch, then a needle change
			[2, 0, 0x80 | 0x19], // a jump, then sewing resumes
			[0, 3, 0x80 | 0x05], // a stitch, then a stop
			[0, 0, 0x80 | 0x1b],
			[0, 0, 0x80 | 0x08],
		]);
		expect(looksLikeKsm(bytes)).toBe(true);
		expect(entriesOf(bytes)).toEqual([
			[20, 10, Command.Stitch],
			[20, 10, Command.Trim],
			[15, 5, Command.Jump],
			[15, 35, Command.Jump],
			[16, 34, Command.Stitch],
			[16, 34, Command.ColorChange],
			[16, 32, Command.Jump],
			[19, 32, Command.Stitch],
			[19, 32, Command.Stop],
			[19, 32, Command.End],
		]);
	});

	it.each([
		[
			'a control byte without 0x80',
			[
				[1, 1, 0x00],
				[0, 0, 0x88],
			],
			/control byte 0x0/,
		],
		[
			'a code KSM lacks',
			[
				[1, 1, 0x82],
				[0, 0, 0x88],
			],
			/control byte 0x82/,
		],
		[
			'records after the end',
			[
				[0, 0, 0x88],
				[1, 1, 0x80],
			],
			/end record at byte 512 is not the last/,
		],
		['no end record', [[1, 1, 0x80]], /last record is not the end record/],
	] as Array<[string, Array<[number, number, number]>, RegExp]>)(
		'refuses %s',
		(_, records, message) => {
			expect(() => readKsm(ksmFile(records))).toThrow(message);
		},
	);

	it('refuses a trim where the design sews: the stitches after it would read as jumps that turn', () => {
		const star = loadFixture('Star.ksm').bytes;
		const trimmed = star.slice();
		// Record 500's control byte, its sign flags kept, given the trim code 0x17.
		const control = 0x200 + 3 * 500 + 2;
		trimmed[control] = (trimmed[control] & 0xe0) | 0x17;
		expect(() => readKsm(trimmed)).toThrow(
			/KSM.*the \d+ jumps from byte 2012 turn back and forth as stitches do/,
		);
		expect(readKsm(star).length).toBeGreaterThan(2500);
	});

	it('reads the jumps real files hold: a move split into steps, small steps and pairs that cancel', () => {
		// As Embroidermodder's sample KSM files end: a trim, a split move, then steps that come back.
		const bytes = ksmFile([
			[10, 20, 0x80 | 0x20],
			[24, 124, 0x80 | 0x40 | 0x17],
			[24, 124, 0x80 | 0x40],
			[23, 120, 0x80 | 0x40],
			[0, 0, 0x80],
			[1, 127, 0x80 | 0x20 | 0x40],
			[1, 127, 0x80],
			[0, 75, 0x80 | 0x40],
			[0, 75, 0x80],
			[0, 3, 0x80],
			[0, 3, 0x80 | 0x40],
			[0, 1, 0x80],
			[0, 1, 0x80 | 0x40],
			[0, 0, 0x80 | 0x1b],
			[0, 0, 0x80 | 0x08],
		]);
		expect(readKsm(bytes).length).toBeGreaterThan(10);
	});

	it('refuses a file that is not a header and whole records', () => {
		expect(() => readKsm(new Uint8Array(0x200 + 4))).toThrow(/whole 3-byte records/);
		expect(looksLikeKsm(new Uint8Array(0x200 + 4))).toBe(false);
	});
});
