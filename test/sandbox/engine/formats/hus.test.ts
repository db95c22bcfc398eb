/**
 * HUS beyond the shared reader table: Husqvarna's compression on streams built bit by bit, files built
 * from the documented layout, and crafted headers and streams that must be refused within the ceilings.
 */
import { ceilings } from '../../../../sandbox/engine/ceilings';
import { PatternTooLargeError, UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { looksLikeHus, readHus } from '../../../../sandbox/engine/formats/husReader';
import { expandHusqvarnaStream } from '../../../../sandbox/engine/formats/husqvarnaCompression';
import { Command } from '../../../../sandbox/engine/pattern';
import { readPattern } from '../../../../sandbox/engine/registry';
import { BitWriter, husFile, literalStream } from '../support/husqvarnaFiles';
import { loadFixture } from '../support/referenceDecoding';

function expand(stream: Uint8Array, size: number): number[] {
	const output = new Uint8Array(size);
	expandHusqvarnaStream(stream, output, 'test stream');
	return Array.from(output);
}

describe('Husqvarna compression', () => {
	it('expands literals and a copy that overlaps the bytes it writes', () => {
		const stream = new BitWriter()
			.literalBlock(2)
			.write(0x41, 8)
			.write(0x42, 8)
			// One token: copy 6 bytes (token 259) from 2 back (distance bit length 1, no extra bits).
			.singleTokenBlock(1, 259, 1)
			.bytes();
		expect(Buffer.from(expand(stream, 8)).toString('latin1')).toBe('ABABABAB');
	});

	it('stops at the declared size, even when tokens cost no bits at all', () => {
		// A block whose single token is literal 7, 65,535 times, from a few bytes of input.
		const stream = new BitWriter().singleTokenBlock(0xffff, 7, 0).bytes();
		expect(expand(stream, 1000)).toEqual(new Array(1000).fill(7));
	});

	it.each([
		[
			'ends before the declared size',
			literalStream([1, 2, 3]),
			/ends early after 3 of its 4 bytes/,
		],
		[
			'copies from before its start',
			new BitWriter().singleTokenBlock(1, 256, 1).bytes(),
			/copy reaches back before its start/,
		],
		[
			'ends with the end token before the declared size',
			new BitWriter().singleTokenBlock(1, 510, 0).bytes(),
			/ends early after 0 of/,
		],
		[
			'gives more codes than bit patterns',
			// Distance table of 3 one-bit codes.
			new BitWriter()
				.write(1, 16)
				.write(0, 5)
				.write(10, 5)
				.write(256, 9)
				.write(3, 5)
				.write(1, 3)
				.write(1, 3)
				.write(1, 3)
				.bytes(),
			/more codes than bit patterns/,
		],
		[
			'uses a code its table leaves undefined',
			// Token table of one 1-bit code (symbol 0): the pattern 1 is undefined.
			new BitWriter()
				.write(1, 16)
				.write(4, 5)
				.write(0, 3)
				.write(0, 3)
				.write(0, 3)
				.write(0, 2)
				.write(1, 3)
				.write(1, 9)
				.write(0, 1)
				.write(0, 5)
				.write(0, 5)
				.write(1, 1)
				.bytes(),
			/code that its table does not define/,
		],
	])('refuses a stream that %s', (_, stream, message) => {
		expect(() => expand(stream, 4)).toThrow(UnreadableSourceError);
		expect(() => expand(stream, 4)).toThrow(message);
	});
});

describe('HUS reader', () => {
	const records = [
		{ command: 0x81, dx: 10, dy: 20 },
		{ command: 0x80, dx: 5, dy: -5 },
		{ command: 0x80, dx: -128, dy: 127 },
		{ command: 0x88, dx: 30, dy: 0 },
		{ command: 0x80, dx: 1, dy: 1 },
		{ command: 0x84, dx: 0, dy: 0 },
		{ command: 0x80, dx: 2, dy: 2 },
		{ command: 0x90, dx: 0, dy: 0 },
	];

	it('reads stitches, jumps, trims and colour changes of a file built from the documented layout', () => {
		const pattern = readHus(husFile(records, [3, 12]));
		const entries = Array.from({ length: pattern.length }, (_, i) => [
			pattern.xs[i],
			pattern.ys[i],
			pattern.commands[i],
		]);
		expect(entries).toEqual([
			[10, -20, Command.Jump],
			[15, -15, Command.Stitch],
			[-113, -142, Command.Stitch],
			[-83, -142, Command.Jump],
			[-83, -142, Command.Trim],
			[-82, -143, Command.Stitch],
			[-82, -143, Command.ColorChange],
			[-80, -145, Command.Stitch],
			[-80, -145, Command.End],
		]);
		expect(pattern.threads.map((thread) => [thread.name, thread.catalogNumber])).toEqual([
			['Red', '014'],
			['White', '022'],
		]);
	});

	it("recognises both of HUS's magics: Star.HUS's 5D FC C8 00 and other writers' 5B AF C8 00", () => {
		const bytes = husFile(records, [3, 12]);
		const other = bytes.slice();
		other.set([0x5b, 0xaf, 0xc8, 0x00]);
		expect(looksLikeHus(other)).toBe(true);
		expect(readHus(other)).toEqual(readHus(bytes));
		other[1] = 0xae;
		expect(looksLikeHus(other)).toBe(false);
	});

	it('refuses an unknown command, and a colour outside the 29-colour chart', () => {
		const unknown = husFile([{ command: 0x82, dx: 0, dy: 0 }], [0]);
		expect(() => readHus(unknown)).toThrow(/stitch 1 has the unknown command 0x82/);
		expect(() => readHus(husFile(records, [29]))).toThrow(
			/number 29 of Husqvarna's 29-colour chart/,
		);
	});

	it('does not recognise a header whose streams are out of order; one cut short holds no stitches', () => {
		const bytes = husFile(records, [3, 12]);
		expect(looksLikeHus(bytes)).toBe(true);
		const swapped = bytes.slice();
		new DataView(swapped.buffer).setUint32(24, 200, true);
		expect(looksLikeHus(swapped)).toBe(false);
		expect(() => readPattern(swapped, 'hus')).toThrow(/out of order/);
		// Cut inside its streams: a HUS file, with nothing left to sew.
		expect(looksLikeHus(bytes.subarray(0, 50))).toBe(true);
		expect(() => readPattern(bytes.subarray(0, 50), 'hus')).toThrow(/holds no stitches/);
	});

	it('refuses an end command that moves the needle, which no writer writes', () => {
		const moving = records.map((record) =>
			record.command === 0x90 ? { ...record, dx: 3 } : record,
		);
		expect(() => readHus(husFile(moving, [3, 12]))).toThrow(
			/its end command, stitch 8, moves the needle \(3, 0\) in 0\.1 mm/,
		);
		// bench:fuzz's completed garbage (seed 1): Star.HUS with byte 2568 (in the y stream) XOR 0x80 or 0x81.
		// A copy's distance changes; the y moves after stitch 2,355 come from elsewhere and the last one
		// shifts into the end command, while the counts, colours and extents stay as declared (94.0% kept).
		const star = loadFixture('Star.HUS').bytes;
		for (const change of [0x80, 0x81]) {
			const damaged = star.slice();
			damaged[2568] ^= change;
			expect(() => readHus(damaged)).toThrow(/its end command, stitch 2557, moves the needle/);
		}
		// Every real HUS and VIP at hand (Star's, Embroidermodder's, the Rust catalogue's) ends with no move.
		expect(readHus(star).length).toBeGreaterThan(2500);
	});

	it('refuses more stitches than the engine handles before expanding anything', () => {
		const huge = husFile(records, [3, 12], { stitchCount: ceilings.patternEntries + 1 });
		expect(() => readHus(huge)).toThrow(PatternTooLargeError);
	});

	it('reads each byte-damaged copy of Star.HUS or refuses it, never failing otherwise', () => {
		const star = loadFixture('Star.HUS').bytes;
		let refused = 0;
		for (let at = 0; at < star.length; at++) {
			const damaged = star.slice();
			damaged[at] ^= 0x5a;
			try {
				readHus(damaged);
			} catch (error) {
				// A damaged stitch count may also claim more stitches than the engine takes.
				expect([UnreadableSourceError, PatternTooLargeError]).toContain(
					(error as Error).constructor,
				);
				refused++;
			}
		}
		// Damage to literal moves still reads (as other moves); damage to headers and code tables is caught.
		expect(refused).toBeGreaterThan(star.length / 4);
	});
});
