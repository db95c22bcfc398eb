import { newFormat } from '../../sandbox/engine/formats/new';
import { Command } from '../../sandbox/engine/pattern';
import { detectFormat } from '../../sandbox/engine/registry';
import { entriesOf } from './support/referenceDecoding';

const read = newFormat.read!;
const { Stitch, Jump, Trim, ColorChange, End } = Command;

/**
 * A NEW file as the format lays it out (the layout of two real files, which stay out of the repository):
 * the count of records before the end, then [|dx|, |dy|, flags] records and two end records.
 */
function newFile(records: number[][], count = records.length): Buffer {
	const head = Buffer.alloc(2);
	head.writeUInt16LE(count, 0);
	return Buffer.concat([head, Buffer.from([...records.flat(), 0, 0, 0x91, 0, 0, 0x91])]);
}

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
