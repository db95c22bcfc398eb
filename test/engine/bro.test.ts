import { broFormat } from '../../sandbox/engine/formats/bro';
import { countCommands } from '../../sandbox/engine/normalise';
import { Command } from '../../sandbox/engine/pattern';
import { detectFormat } from '../../sandbox/engine/registry';
import { fixture } from '../support/embroideryFiles';

const read = broFormat.read!;
/** Star.BRO's needle change: 0x80, a flag, code 0xe1, then the move (0, -13) as two 16-bit words. */
const needleChange = 0xc35;

describe('BRO reader', () => {
	it('reads the needle change as a colour change and the move that follows it', () => {
		const bytes = fixture('Star.BRO');
		expect([...bytes.subarray(needleChange, needleChange + 3)]).toEqual([0x80, 0x01, 0xe1]);
		const pattern = read(bytes);
		expect(countCommands(pattern, Command.ColorChange)).toBe(1);
		expect(pattern.threads).toEqual([]);
	});

	it('refuses a header whose stitch count is not the records', () => {
		const bytes = fixture('Star.BRO');
		bytes.writeUInt32LE(bytes.readUInt32LE(0x0c) - 1, 0x0c);
		expect(() => read(bytes)).toThrow(/counts 2514 stitches, but it holds 2515/);
		bytes.writeUInt32LE(0xffffffff, 0x0c);
		expect(broFormat.detect!(bytes)).toBe(false);
		expect(() => read(bytes)).toThrow(/claims 4294967295 stitches/);
	});

	it('refuses extents in the header that the stitches do not span', () => {
		const bytes = fixture('Star.BRO');
		bytes.writeUInt16LE(bytes.readUInt16LE(0x12) + 10, 0x12);
		expect(() => read(bytes)).toThrow(/extents of 601 x 623, but its stitches span 591 x 623/);
	});

	it('refuses an unknown control code, a missing end and bytes after the end', () => {
		const unknown = fixture('Star.BRO');
		unknown[needleChange + 2] = 0x55;
		expect(() => read(unknown)).toThrow(/control code 0x55 at byte 3125/);
		const cut = fixture('Star.BRO').subarray(0, needleChange + 10);
		expect(() => read(cut)).toThrow(/BRO file is damaged/);
		const padded = Buffer.concat([fixture('Star.BRO'), Buffer.alloc(64)]);
		expect(() => read(padded)).toThrow(/69 bytes follow the end control/);
	});

	it('is never read as EXP, whose records its bytes would also fit', () => {
		const bytes = fixture('Star.BRO');
		for (const name of ['Star.BRO', 'design', 'design.exp'])
			expect([name, detectFormat(bytes, name)]).toEqual([
				name,
				name === 'design.exp' ? null : 'bro',
			]);
	});
});
