import { expFormat } from '../../../../sandbox/engine/formats/exp';
import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import {
	compareEvents,
	expControlRecords,
	loadFixture,
	patternEvents,
} from '../support/referenceDecoding';
import { identifyFormat, readPattern, writePattern } from '../../../../sandbox/engine';
import { sharedSample } from '../support/starSamples';

const read = expFormat.read!;
const write = expFormat.write!;

/** Real designs: each shared sample, read in its own format and written as EXP, reads as EXP again. */
function expectReadWrittenAsExp(names: string[]): void {
	for (const name of names) {
		const bytes = sharedSample(name);
		const pattern = readPattern(bytes, identifyFormat(bytes, name).format!);
		expect(() => read(writePattern(pattern, 'exp').bytes)).not.toThrow();
	}
}

describe('EXP reader', () => {
	it('reads a trim and a colour change with its move', () => {
		const bytes = new Uint8Array([
			0x05, 0xfb, 0x80, 0x80, 0x07, 0x00, 0x80, 0x01, 0x0a, 0x00, 0x01, 0x01,
		]);
		const pattern = read(bytes);
		const listed = Array.from({ length: pattern.length }, (_, i) => [
			pattern.xs[i],
			pattern.ys[i],
			pattern.commands[i],
		]);
		expect(listed).toEqual([
			[5, 5, Command.Stitch],
			[5, 5, Command.Trim],
			[5, 5, Command.ColorChange],
			[15, 5, Command.Jump],
			[16, 4, Command.Stitch],
			[16, 4, Command.End],
		]);
	});

	it('refuses what EXP never holds: an unknown control, a record cut short, padding, 3-byte records', () => {
		const star = loadFixture('Star.EXP').bytes;
		const withControl = (code: number) =>
			Uint8Array.from([...star.subarray(0, 8), 0x80, code, 0, 0]);
		expect(() => read(withControl(0x33))).toThrow(/control code 0x33 at byte 8/);
		expect(() => read(star.subarray(0, star.length - 1))).toThrow(/not whole 2-byte records/);
		expect(() => read(Uint8Array.from([...star.subarray(0, 8), 0x80, 0x01]))).toThrow(
			/ends inside a control record/,
		);
		const padded = Uint8Array.from([...new Array(34).fill(0), ...star]);
		expect(() => read(padded)).toThrow(
			/more than 16 of 64 stitches in a row up to byte 32 do not move/,
		);
		// Star.EXP opens with one stitch in place: with 15 before it, 16 of its first 64 do not move.
		expect(() => read(Uint8Array.from([...new Array(30).fill(0), ...star]))).not.toThrow();
		const threeByteRecords = Uint8Array.from({ length: 600 }, (_, i) =>
			i % 3 === 2 ? 0x01 : (i * 7) & 0x3f,
		);
		expect(() => read(threeByteRecords)).toThrow(/every third byte holds the same flags/);
		for (const code of [0x01, 0x02, 0x04, 0x80])
			expect(() => read(withControl(code))).not.toThrow();
	});

	it("refuses another format's magic before EXP records: PHC's, PHB's and STX's too", () => {
		const exp = loadFixture('Star.EXP').bytes;
		const phc = sharedSample('Star.phc');
		// Star.phc's first 256 bytes before Star.EXP read as 128 EXP stitches and completed at 21% of the path.
		const spliced = new Uint8Array([...phc.subarray(0, 256), ...exp]);
		expect(() => read(spliced)).toThrow(/not EXP, which has no header: it starts with "#PHC"/);
		for (const magic of ['#PHB', 'STX'])
			expect(() => read(new Uint8Array([...Buffer.from(magic, 'latin1'), 0, ...exp]))).toThrow(
				/it starts with/,
			);
	});

	it("refuses a header's padding, a preview picture or text read as stitches, which no real design holds", () => {
		const exp = loadFixture('Star.EXP').bytes;
		const over = (name: string, head: number, body: Uint8Array) =>
			new Uint8Array([...sharedSample(name).subarray(0, head), ...body.subarray(head)]);
		// Star.EXP's first 405 bytes over Star.SHV: SHV's preview picture, 58 of 64 stitches in place (7.3% kept).
		expect(() => read(over('Star.EXP', 405, sharedSample('Star.SHV')))).toThrow(
			/more than 16 of 64 stitches in a row up to byte \d+ do not move/,
		);
		// Star.SEW's first 128 bytes over Star.EXP: its header's zeros between its counts (97.6% kept).
		expect(() => read(over('Star.SEW', 128, exp))).toThrow(/of 64 stitches in a row/);
		// Star.SHV's first 64 bytes over Star.EXP: Viking's licence text as 32 long stitches (98.7% kept).
		expect(() => read(over('Star.SHV', 64, exp))).toThrow(
			/17 stitches in a row up to byte 32 are printable text/,
		);
		// Real designs: every shared sample, written as EXP, reads (the 155 real files were checked likewise).
		expectReadWrittenAsExp(['Star.DST', 'Star.pes', 'Star.JEF', 'Star.HUS']);
	});

	it("refuses DAT's and 10O's 3-byte records of the star before or over the start of Star.EXP", () => {
		const exp = loadFixture('Star.EXP').bytes;
		const dat = sharedSample('Star.dat');
		const tenO = sharedSample('Star.10O');
		// bench:fuzz's completed garbage (seed 1): 90.5% to 98.8% of the path kept, each named .EXP.
		const spliced = [
			new Uint8Array([...dat.subarray(0, 64), ...exp.subarray(64)]),
			new Uint8Array([...dat.subarray(0, 512), ...exp.subarray(512)]),
			new Uint8Array([...dat.subarray(0, 64), ...exp]),
			new Uint8Array([...tenO.subarray(0, 64), ...exp.subarray(64)]),
		];
		for (const bytes of spliced) {
			expect(() => read(bytes)).toThrow(/15 of 16 bytes three apart hold the same value/);
			expect(identifyFormat(bytes, 'Star.EXP').format).toBeNull();
		}
		// Every real design at hand, as EXP, holds at most 12 of 16: Star.EXP and the star in other layouts read.
		expect(() => read(exp)).not.toThrow();
		expectReadWrittenAsExp(['Star.dat', 'Star.10O', 'Star.100', 'Star.ksm']);
	});

	it("refuses STX's colour list, numbers counting 1 to 15, read as stitches between Star.EXP's and STX's", () => {
		const exp = loadFixture('Star.EXP').bytes;
		const stx = sharedSample('Star.STX');
		// bench:fuzz's completed garbage (seed 1): Star.EXP's first 427 or 512 bytes over Star.STX (25% kept).
		for (const head of [427, 512]) {
			const bytes = new Uint8Array([...exp.subarray(0, head), ...stx.subarray(head)]);
			expect(() => read(bytes)).toThrow(/stitches in a row up to byte \d+ count up by one/);
			expect(identifyFormat(bytes, 'Star.EXP').format).toBeNull();
		}
		// Real designs hold at most 4 such stitches in a row; 8 read, 9 do not.
		const counting = (count: number) =>
			new Uint8Array(Array.from({ length: count }, (_, i) => [0, i + 1]).flat());
		expect(() => read(new Uint8Array([...counting(8), 5, 0xfb]))).not.toThrow();
		expect(() => read(counting(9))).toThrow(/the 9 stitches in a row up to byte 16 count up/);
	});

	it("refuses Toyota 100's records read as stitches taking turns long and tiny, before or over Star.EXP", () => {
		const exp = loadFixture('Star.EXP').bytes;
		const toyota = sharedSample('Star.100');
		// bench:fuzz's completed garbage (seed 1), each named .EXP: 91.6 to 98.8% of the path kept. Star.100
		// opens with 8 moves of 03 00 00 92, as EXP a stitch of 0.3 mm, then one of 11 mm, over and over.
		const spliced = [
			new Uint8Array([...toyota.subarray(0, 64), ...exp]),
			new Uint8Array([...toyota.subarray(0, 243), ...exp.subarray(243)]),
			new Uint8Array([...toyota.subarray(0, 512), ...exp.subarray(512)]),
		];
		for (const bytes of spliced)
			expect(() => read(bytes)).toThrow(
				/the 9 stitches in a row up to byte 16 take turns between 9 mm or more and 0\.5 mm or less/,
			);
		// Every real design at hand, as EXP, holds at most 2 such stitches in a row; 8 read, 9 do not.
		const inTurn = (count: number) =>
			new Uint8Array(Array.from({ length: count }, (_, i) => (i % 2 ? [0, 0x92] : [3, 0])).flat());
		expect(() => read(new Uint8Array([...inTurn(8), 40, 0, ...inTurn(8)]))).not.toThrow();
		expect(() => read(inTurn(9))).toThrow(/the 9 stitches in a row up to byte 16 take turns/);
		// A control record breaks the run.
		expect(() =>
			read(new Uint8Array([...inTurn(8), 0x80, 0x04, 0, 0, ...inTurn(8)])),
		).not.toThrow();
		expect(() => read(exp)).not.toThrow();
		expectReadWrittenAsExp(['Star.100', 'Star.DST', 'Star.pes', 'Star.VIP']);
	});

	it("refuses JEF's header, 32-bit numbers whose zero halves are stitches in place every other one", () => {
		// bench:fuzz's garbage (seed 2): Star.JEF's first 64 bytes over Star.EXP, named .EXP (98.9% kept).
		const exp = loadFixture('Star.EXP').bytes;
		const jef = sharedSample('Star.JEF');
		expect(() => read(new Uint8Array([...jef.subarray(0, 64), ...exp.subarray(64)]))).toThrow(
			/of the 9 stitches in a row up to byte 36, every other one does not move/,
		);
		// Every real design at hand, as EXP, holds at most 4 such stitches in a row; 8 read, 9 do not.
		const numbers = (count: number) =>
			new Uint8Array(Array.from({ length: count }, (_, i) => (i % 2 ? [0, 0] : [i + 1, 0])).flat());
		expect(() => read(numbers(8))).not.toThrow();
		expect(() => read(numbers(9))).toThrow(/of the 9 stitches in a row up to byte 16, every other/);
		expectReadWrittenAsExp(['Star.JEF', 'Star.PCS', 'Star.DST']);
	});

	it('rejects an empty file', () => {
		expect(() => read(new Uint8Array(0))).toThrow(UnreadableSourceError);
	});
});

describe('EXP writer', () => {
	it('writes stitches, jumps, trims and colour changes in Melco records', () => {
		const pattern = new Pattern();
		pattern.add(10, -10, Command.Stitch);
		pattern.add(10, -10, Command.Trim);
		pattern.add(300, -10, Command.Jump);
		pattern.add(300, -10, Command.ColorChange);
		pattern.add(200, 0, Command.Stitch);
		pattern.add(200, 0, Command.End);
		pattern.threads = [{ color: 0xff0000 }];
		const { bytes, warnings } = write(pattern);
		expect(Array.from(bytes.subarray(0, 6))).toEqual([10, 10, 0x80, 0x80, 0x07, 0x00]);
		// 290 across needs three jump records of at most 127.
		expect(expControlRecords(bytes, 0x04)).toBe(3);
		expect(expControlRecords(bytes, 0x01)).toBe(1);
		expect(warnings.join(' ')).toMatch(/no thread colours/);
		const back = read(bytes);
		expect(
			compareEvents(
				patternEvents(pattern, { collapseMoves: true }),
				patternEvents(back, { collapseMoves: true }),
			).differences,
		).toEqual([]);
		expect(countCommands(back, Command.Trim)).toBe(1);
	});

	it('round-trips Star.EXP without moving a needle position', () => {
		const original = read(loadFixture('Star.EXP').bytes);
		const back = read(write(original).bytes);
		expect(compareEvents(patternEvents(original), patternEvents(back)).differences).toEqual([]);
	});
});
