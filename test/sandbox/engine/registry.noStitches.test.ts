/**
 * A design with no stitches is refused by every reader's path, so a job never completes (and is never
 * charged) for a file that sews nothing: written empty in every format, and a U01 header with an end code.
 */
import { listFormats, readPattern, writePattern } from '../../../sandbox/engine';
import { Command } from '../../../sandbox/engine/pattern';
import { fixture } from '../../support/embroideryFiles';
import { patternOf } from './support/referenceDecoding';

const writable = listFormats().filter((format) => format.writable && format.readable);

describe('readPattern refuses a design with no stitches', () => {
	it.each(writable.map((format) => format.format))('written as %s with only a move', (format) => {
		const empty = patternOf([
			[40, 30, Command.Jump],
			[40, 30, Command.End],
		]);
		let bytes: Uint8Array;
		try {
			bytes = writePattern(empty, format).bytes;
		} catch {
			return; // A writer that refuses an empty design leaves nothing to read.
		}
		expect(() => readPattern(bytes, format)).toThrow(/holds no stitches/);
	});

	it('a U01 header with only an end code', () => {
		const star = new Uint8Array(fixture('Star.u01'));
		const bytes = star.slice(0, 0x100 + 3);
		bytes.set([0x98, 0x00, 0x00], 0x100);
		expect(() => readPattern(bytes, 'u01')).toThrow(/holds no stitches/);
	});

	it('still reads a design with one stitch', () => {
		const one = patternOf([
			[0, 0, Command.Stitch],
			[10, 0, Command.Stitch],
			[10, 0, Command.End],
		]);
		for (const { format } of writable)
			expect(readPattern(writePattern(one, format).bytes, format).length).toBeGreaterThan(0);
	});
});
