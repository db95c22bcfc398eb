import { stcFormat } from '../../../../sandbox/engine/formats/stc';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { builtStars, stcFile } from '../support/builtFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import {
	entriesOf,
	loadFixture,
	patternEvents,
	referenceEvents,
} from '../support/referenceDecoding';

const read = stcFormat.read!;
const { Stitch, Jump, ColorChange, End } = Command;

/** A needle picked before sewing, stitches, a jump, a second needle and a stitch. */
const design = [
	[0, 0, 2],
	[10, 0, 1],
	[0, 0xf6, 1],
	[5, 5, 0],
	[0, 0, 3],
	[0xf6, 0, 1],
];

describe('STC reader', () => {
	it('reads stitches, jumps and needle changes, the needle picked before sewing being no colour change', () => {
		expect(entriesOf(read(stcFile(design)))).toEqual([
			[10, 0, Stitch],
			[10, 10, Stitch],
			[15, 5, Jump],
			[15, 5, ColorChange],
			[5, 5, Stitch],
			[5, 5, End],
		]);
		expect(detectFormat(stcFile(design), 'square.dst')).toBe('stc');
	});

	it("refuses a header whose count is not the first end record's place", () => {
		expect(() => read(stcFile(design, 9))).toThrow(
			/counts 9 stitches, but the end code is record 7/,
		);
	});

	it('reads a file cut short to its last whole record, unless it holds more records than its header counts', () => {
		const whole = stcFile(design);
		const cut = read(whole.subarray(0, 40 + 3 * 3 + 1));
		expect(entriesOf(cut)).toEqual([
			[10, 0, Stitch],
			[10, 10, Stitch],
			[10, 10, End],
		]);
		expect(cut.warnings).toEqual([
			'The file ends early (in the middle of a record): read 3 of 6 declared stitches. The rest of the ' +
				'design is missing; check the file.',
		]);
		expect(read(whole.subarray(0, 40 + 6 * 3)).warnings[0]).toMatch(
			/without its end code\): read 6 of 6/,
		);
		// Cut inside the end records that follow the design: all of it is there.
		expect(read(whole.subarray(0, whole.length - 2)).warnings).toEqual([]);
		expect(() => read(stcFile(design, 4).subarray(0, 40 + 5 * 3))).toThrow(
			/counts 4 stitches with the end code, but 5 come without one/,
		);
	});

	it('refuses an unknown code, data after the end and a header without its labels', () => {
		expect(() => read(stcFile([...design, [1, 1, 30]]))).toThrow(/code 30, which STC lacks/);
		const trailing = Buffer.concat([stcFile(design), Buffer.from([1, 0, 1])]);
		expect(() => read(trailing)).toThrow(/follows the end code/);
		const unlabelled = stcFile(design);
		unlabelled.write('NAME:', 0, 'latin1');
		expect(stcFormat.detect!(unlabelled)).toBe(false);
		expect(() => read(unlabelled)).toThrow(/does not start with "DESIGN:"/);
	});
});

it("reads Star.DST's design written as STC back with every one of Star.DST's needle points, in order", () => {
	const { bytes } = builtStars().find((file) => file.name === 'Star.stc')!;
	const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
	expect(pointsMatched(expected, needlePath(patternEvents(read(bytes))), 1)).toBe(expected.length);
	expect(detectFormat(bytes)).toBe('stc');
});
