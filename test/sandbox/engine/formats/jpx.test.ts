import { jpxFormat } from '../../../../sandbox/engine/formats/jpx';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { builtStars, jpxFile, type JpxThread } from '../support/builtFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import {
	entriesOf,
	loadFixture,
	patternEvents,
	referenceEvents,
} from '../support/referenceDecoding';

const read = jpxFormat.read!;

/** A square's stitches, a colour change with a move, more stitches and the end code. */
const records = [
	0x80, 0x02, 0x00, 0x00, 10, 0, 0, 10, 0xf6, 0, 0x80, 0x01, 5, 0xfb, 0, 0xf6, 0x80, 0x10,
];
const twoThreads: JpxThread[] = [
	{ rgb: [0xe5, 0xe5, 0xe5], catalog: 220, name: 'Silver Gray' },
	{ rgb: [0x62, 0x31, 0xbd], catalog: 261, name: 'Violet Blue' },
];

describe('JPX reader', () => {
	it('reads the thread of each block from its table: exact shade, catalogue number, name and brand', () => {
		const pattern = read(jpxFile([23, 59], records, twoThreads));
		expect(pattern.threads).toEqual([
			{ color: 0xe5e5e5, catalogNumber: '220', name: 'Silver Gray', brand: 'JANOME' },
			{ color: 0x6231bd, catalogNumber: '261', name: 'Violet Blue', brand: 'JANOME' },
		]);
		const { Stitch, Jump, ColorChange, End } = Command;
		expect(entriesOf(pattern)).toEqual([
			[10, 0, Stitch],
			[10, -10, Stitch],
			[0, -10, Stitch],
			[0, -10, ColorChange],
			[5, -5, Jump],
			[5, 5, Stitch],
			[5, 5, End],
		]);
		expect(detectFormat(jpxFile([23, 59], records, twoThreads))).toBe('jpx');
	});

	it("names the colours from Janome's chart when the file has no thread table", () => {
		const pattern = read(jpxFile([33, 51], records));
		expect(pattern.threads.map((thread) => [thread.name, thread.catalogNumber])).toEqual([
			['Burnt Orange', '235'],
			['Ivory White', '253'],
		]);
	});

	it('refuses a header without its date, codes off the chart and a table that misses the stitches', () => {
		const undated = jpxFile([23, 59], records, twoThreads);
		undated.write('2026-05', 0x10, 'latin1');
		expect(jpxFormat.detect!(undated)).toBe(false);
		expect(() => read(undated)).toThrow(/no 14-digit date/);
		expect(() => read(jpxFile([23, 99], records, twoThreads))).toThrow(
			/code 99, which Janome's chart lacks/,
		);
		const shifted = jpxFile([23, 59], records, twoThreads);
		shifted.writeUInt32LE(shifted.readUInt32LE(0) + 2, 0);
		expect(() => read(shifted)).toThrow(/thread table does not end where the stitches start/);
		expect(() => read(jpxFile([23], records, twoThreads.slice(0, 1)))).toThrow(
			/2 colour blocks, but its header names 1 colours/,
		);
	});

	it('refuses records that do not end in the end code, or data after it', () => {
		expect(() => read(jpxFile([23, 59], records.slice(0, -2), twoThreads))).toThrow(
			/without the end code/,
		);
		expect(() => read(jpxFile([23, 59], [...records, 0, 0, 7], twoThreads))).toThrow(
			/data follows the end code/,
		);
	});
});

it("reads Star.DST's design written as JPX back with every one of Star.DST's needle points, in order", () => {
	const { bytes } = builtStars().find((file) => file.name === 'Star.jpx')!;
	const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
	expect(pointsMatched(expected, needlePath(patternEvents(read(bytes))), 1)).toBe(expected.length);
	expect(detectFormat(bytes)).toBe('jpx');
});
