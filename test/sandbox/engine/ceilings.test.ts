import { ceilings } from '../../../sandbox/engine/ceilings';
import { PatternTooLargeError, UnreadableSourceError } from '../../../sandbox/engine/errors';
import { ByteBuilder } from '../../../sandbox/engine/formats/binaryIo';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import {
	detectFormat,
	findModule,
	listFormats,
	readPattern,
	writePattern,
} from '../../../sandbox/engine/registry';

/** A Singer XXX file of nothing but 16-bit long moves: five bytes each, up to 3.2 m per record. */
function xxxOfLongMoves(moves: Array<[number, number]>): Uint8Array {
	const out = new ByteBuilder();
	out.fill(0, 0x100);
	for (const [dx, dy] of moves) {
		out.u8(0x7d);
		out.u16le(dx);
		out.u16le(-dy);
	}
	out.patchU32le(0xfc, out.length);
	out.bytes([0x7f, 0x7f, 0x02, 0x14, 0, 0]);
	return out.toBytes();
}

const writableFormats = listFormats()
	.filter((format) => format.writable)
	.map((format) => format.format);

describe('Ceilings of one job', () => {
	it('refuses to explode 300 KB of metre-long XXX moves into every format, before writing', () => {
		const moves = Array.from({ length: 60_000 }, (_, i): [number, number] => [
			i % 2 ? -32_000 : 32_000,
			0,
		]);
		const source = xxxOfLongMoves(moves);
		expect(source.length).toBeLessThan(310_000);
		expect(detectFormat(source)).toBe('xxx');
		// Moves alone sew nothing, so a job refuses them; the writers' ceilings are checked on the reading.
		expect(() => readPattern(source)).toThrow(/holds no stitches/);
		const pattern = findModule('xxx')!.read!(source);
		expect(pattern.length).toBe(60_001);
		// VP3 and XXX hold 16-bit moves in one record, so only the others would explode.
		for (const format of ['dst', 'exp', 'jef', 'pes', 'pec', 'u01'])
			expect(() => writePattern(pattern, format)).toThrow(PatternTooLargeError);
		expect(writePattern(pattern, 'xxx').bytes.length).toBeLessThan(source.length + 16);
		expect(() => writePattern(pattern, 'dst')).toThrow(
			new RegExp(
				'Written as DST, this design of 60,001 entries would need 15,900,001 ' +
					'records: its moves \\(up to 3\\.2 m long\\) must be split into ' +
					'steps of at most 12\\.1 mm\\. A conversion may write at most 280,003 records',
			),
		);
	});

	it('carries the failure code the job runner reports', () => {
		const error = new PatternTooLargeError('too large');
		expect(error.code).toBe('pattern_too_large');
	});

	it('still converts a small design with a few long moves (the budget has a floor)', () => {
		const pattern = new Pattern();
		pattern.add(0, 0, Command.Stitch);
		pattern.add(30_000, 0, Command.Jump);
		pattern.add(30_010, 0, Command.Stitch);
		pattern.add(-30_000, 0, Command.Jump);
		pattern.add(-30_000, 10, Command.Stitch);
		pattern.add(-30_000, 10, Command.End);
		for (const format of writableFormats) {
			const written = writePattern(pattern, format);
			expect(written.bytes.length).toBeGreaterThan(0);
		}
		// Stitch, 248 steps of 12.1 mm, stitch, 496 steps back, stitch, end.
		expect(writePattern(pattern, 'dst').bytes.length).toBe(512 + 3 * (1 + 248 + 1 + 496 + 1 + 1));
	});

	it('refuses moves that lead off the pattern model instead of wrapping the 32-bit positions', () => {
		// 70,000 moves of 3.2 m would wrap a 32-bit position (2^31 / 32,000 is about 67,109).
		const source = xxxOfLongMoves(
			Array.from({ length: 70_000 }, (): [number, number] => [32_000, 0]),
		);
		expect(() => readPattern(source)).toThrow(UnreadableSourceError);
		expect(() => readPattern(source)).toThrow(
			/The file is damaged: its moves lead 12\.8 m from its origin, beyond the 10\.0 m on each axis/,
		);
	});

	it('keeps positions up to the ceiling and refuses one step past it, or a position that is not a number', () => {
		const pattern = new Pattern();
		pattern.add(ceilings.coordinate, -ceilings.coordinate, Command.Jump);
		expect([pattern.xs[0], pattern.ys[0]]).toEqual([ceilings.coordinate, -ceilings.coordinate]);
		expect(() => pattern.add(ceilings.coordinate + 1, 0, Command.Jump)).toThrow(
			UnreadableSourceError,
		);
		expect(() => pattern.add(0, -ceilings.coordinate - 1, Command.Jump)).toThrow(
			UnreadableSourceError,
		);
		expect(() => pattern.add(Number.NaN, 0, Command.Jump)).toThrow(/not a number/);
		expect(pattern.length).toBe(1);
	});

	it('refuses a source that decodes to more entries than a pattern holds', () => {
		// A DST of ceiling + 1 stitch records (6 MB): every record a 0.1 mm stitch to the right and back.
		const records = ceilings.patternEntries + 1;
		const bytes = new Uint8Array(512 + records * 3 + 3);
		bytes.set(Buffer.from('LA:fuzz            \r'), 0);
		bytes.fill(0x20, 20, 512);
		for (let i = 0; i < records; i++) {
			bytes[512 + i * 3] = i % 2 ? 0x02 : 0x01;
			bytes[512 + i * 3 + 2] = 0x03;
		}
		bytes.set([0, 0, 0xf3], 512 + records * 3);
		let refusal: unknown;
		try {
			readPattern(bytes, 'dst');
		} catch (error) {
			refusal = error;
		}
		expect(refusal).toBeInstanceOf(PatternTooLargeError);
		expect((refusal as Error).message).toMatch(/more than 2,000,000 stitches and commands/);
	});

	it('refuses to build a machine file larger than the output ceiling', () => {
		const out = new ByteBuilder();
		out.fill(0, ceilings.outputBytes);
		expect(() => out.u8(1)).toThrow(PatternTooLargeError);
		expect(() => out.u8(1)).toThrow(/larger than 32 MB/);
		expect(out.length).toBe(ceilings.outputBytes);
	});
});
