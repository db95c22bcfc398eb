import { jpxFormat } from '../../sandbox/engine/formats/jpx';
import { Command } from '../../sandbox/engine/pattern';
import { detectFormat } from '../../sandbox/engine/registry';
import { entriesOf } from './support/referenceDecoding';

const read = jpxFormat.read!;

interface JpxThread {
	rgb: [number, number, number];
	catalog: number;
	name: string;
}

/**
 * A JPX file as the format lays it out (the layout of two real files, which stay out of the repository):
 * stitch offset, date, colour count, chart codes and thread types, the thread table, then the records.
 */
function jpxFile(codes: number[], records: number[], threads?: JpxThread[]): Buffer {
	const head = Buffer.alloc(0x3c + 8 * codes.length);
	head.write('20260502220831', 0x10, 'latin1');
	head.writeUInt32LE(codes.length, 0x20);
	codes.forEach((code, i) => {
		head.writeUInt32LE(code, 0x3c + 4 * i);
		head.writeUInt32LE(13, 0x3c + 4 * codes.length + 4 * i);
	});
	const parts = [head];
	if (threads) {
		const table = Buffer.alloc(4 + 44 * threads.length + 16);
		table.writeUInt32LE(threads.length, 0);
		threads.forEach((thread, i) => {
			const at = 4 + 44 * i;
			table.writeUInt32LE(i, at);
			table.set([...thread.rgb, 0x09], at + 4);
			table.writeUInt32LE(thread.catalog, at + 8);
			table.write(thread.name, at + 12, 'latin1');
		});
		table.write('JANOME', 4 + 44 * threads.length, 'latin1');
		parts.push(table);
	}
	const file = Buffer.concat([...parts, Buffer.from(records)]);
	file.writeUInt32LE(file.length - records.length, 0);
	return file;
}

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
