import { newFormat } from '../../../../sandbox/engine/formats/new';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { builtStars, newFile } from '../support/builtFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import {
	entriesOf,
	loadFixture,
	patternEvents,
	referenceEvents,
} from '../support/referenceDecoding';

const read = newFormat.read!;
const { Stitch, Jump, Trim, ColorChange, End } = Command;

/** Stitches right and down, a trim and a needle change (two needle records), a jump, a stitch left and up. */
const design = [
	[10, 0, 0x80],
	[0, 10, 0xa0],
	[0, 0, 0x9b],
	[0, 0, 0x93],
	[0, 0, 0x85],
	[5, 5, 0x81],
	[10, 10, 0xc0],
];

describe('NEW reader', () => {
	it('reads stitches, trims, jumps and a needle change, the two needle records as one colour change', () => {
		expect(entriesOf(read(newFile(design)))).toEqual([
			[10, 0, Stitch],
			[10, 10, Stitch],
			[10, 10, Trim],
			[10, 10, ColorChange],
			[15, 5, Jump],
			[5, -5, Stitch],
			[5, -5, End],
		]);
		expect(detectFormat(newFile(design))).toBe('new');
	});

	it('refuses a count that is not the records before the end', () => {
		expect(() => read(newFile(design, 6))).toThrow(/counts 6 records, but 7 come before the end/);
	});

	it('refuses a record without the flag bit 0x80, an unknown action and data after the end', () => {
		expect(() => read(newFile([...design, [1, 1, 0x00]]))).toThrow(/lacks the flag bit 0x80/);
		expect(() => read(newFile([...design, [1, 1, 0x82]]))).toThrow(/action 0x2, which NEW lacks/);
		const trailing = Buffer.concat([newFile(design), Buffer.from([1, 0, 0x80])]);
		expect(() => read(trailing)).toThrow(/follows the end record/);
		expect(() => read(newFile(design).subarray(0, 2 + 3 * 7))).toThrow(/without the end record/);
	});
});

it("reads Star.DST's design written as NEW back with every one of Star.DST's needle points, in order", () => {
	const { bytes } = builtStars().find((file) => file.name === 'Star.new')!;
	const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
	expect(pointsMatched(expected, needlePath(patternEvents(read(bytes))), 1)).toBe(expected.length);
	expect(detectFormat(bytes)).toBe('new');
});
