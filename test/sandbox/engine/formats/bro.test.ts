import { broFormat } from '../../../../sandbox/engine/formats/bro';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { entriesOf } from '../support/referenceDecoding';

const read = broFormat.read!;
/** Star.BRO's needle change: 0x80 0x01, code 0xe1, then the move (0, -13) as two 16-bit words. */
const needleChange = 0xc35;

/** A BRO file as the format lays it out: a 256-byte header, then stitches and 7-byte controls. */
function broFile(records: number[][], extents: [number, number]): Buffer {
	const header = Buffer.alloc(256);
	header.write('design', 3, 'latin1');
	header.writeUInt32LE(
		records.filter((record) => record.length !== 2 || record[0] !== 0x80).length,
		0x0c,
	);
	header.writeUInt16LE(extents[1], 0x10);
	header.writeUInt16LE(extents[0], 0x12);
	return Buffer.concat([header, Buffer.from(records.flat())]);
}

const control = (code: number, dx: number, dy: number) => {
	const record = Buffer.alloc(7);
	record.set([0x80, 0x01, code]);
	record.writeInt16LE(dx, 3);
	record.writeInt16LE(dy, 5);
	return [...record];
};

describe('BRO reader', () => {
	it('reads the needle change as a colour change and the move that follows it', () => {
		const bytes = fixture('Star.BRO');
		expect([...bytes.subarray(needleChange, needleChange + 3)]).toEqual([0x80, 0x01, 0xe1]);
		const pattern = read(bytes);
		expect(countCommands(pattern, Command.ColorChange)).toBe(1);
		expect(pattern.threads).toEqual([]);
	});

	it('reads the start move, trims, stops, needle changes and the end code 0x7e of the layout', () => {
		const pattern = read(
			broFile(
				[
					control(0x00, -20, 20),
					[10, 0],
					[0, 10],
					control(0x03, 30, 0),
					[10, 0],
					control(0xe2, 0, -5),
					[0, 10],
					control(0x02, 0, 0),
					[10, 10],
					control(0x7e, 0, 0),
				],
				[50, 25],
			),
		);
		const { Stitch, Jump, Trim, ColorChange, Stop, End } = Command;
		expect(entriesOf(pattern)).toEqual([
			[-20, -20, Jump],
			[-10, -20, Stitch],
			[-10, -30, Stitch],
			[-10, -30, Trim],
			[20, -30, Jump],
			[30, -30, Stitch],
			[30, -30, ColorChange],
			[30, -25, Jump],
			[30, -35, Stitch],
			[30, -35, Stop],
			[40, -45, Stitch],
			[40, -45, End],
		]);
	});

	it('refuses a header whose record count is not the records', () => {
		const bytes = fixture('Star.BRO');
		bytes.writeUInt32LE(bytes.readUInt32LE(0x0c) - 1, 0x0c);
		expect(() => read(bytes)).toThrow(/counts 2514 records, but it holds 2515/);
		bytes.writeUInt32LE(0xffffffff, 0x0c);
		expect(broFormat.detect!(bytes)).toBe(false);
		expect(() => read(bytes)).toThrow(/claims 4294967295 records/);
	});

	it('refuses extents in the header that the stitches do not span', () => {
		const bytes = fixture('Star.BRO');
		bytes.writeUInt16LE(bytes.readUInt16LE(0x12) + 10, 0x12);
		expect(() => read(bytes)).toThrow(/extents of 601 x 623, but its stitches span 591 x 623/);
	});

	it('refuses an unknown control code or flag, a missing end and bytes after the end', () => {
		const unknown = fixture('Star.BRO');
		unknown[needleChange + 2] = 0x55;
		expect(() => read(unknown)).toThrow(/control code 0x55 at byte 3125/);
		const flag = fixture('Star.BRO');
		flag[needleChange + 1] = 0x07;
		expect(() => read(flag)).toThrow(/control at byte 3125 has flag 0x7/);
		const cut = fixture('Star.BRO').subarray(0, needleChange + 10);
		expect(() => read(cut)).toThrow(/BRO file is damaged/);
		const padded = Buffer.concat([fixture('Star.BRO'), Buffer.alloc(64)]);
		expect(() => read(padded)).toThrow(/70 bytes follow the end control/);
	});

	it('is never read as EXP, whose records its bytes would also fit', () => {
		const bytes = fixture('Star.BRO');
		expect(detectFormat(bytes, 'Star.BRO')).toBe('bro');
		// BRO has no magic: a name that does not say BRO is refused, never guessed.
		expect(detectFormat(bytes, 'design')).toBeNull();
		expect(detectFormat(bytes, 'design.exp')).toBeNull();
	});
});
