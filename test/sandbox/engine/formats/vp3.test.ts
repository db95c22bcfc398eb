import { readPattern } from '../../../../sandbox/engine';
import { jefFormat } from '../../../../sandbox/engine/formats/jef';
import { pesFormat } from '../../../../sandbox/engine/formats/pes';
import { vp3Format } from '../../../../sandbox/engine/formats/vp3';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { compareEvents, loadFixture, patternEvents, patternOf } from '../support/referenceDecoding';
import { fixBlockLengths } from '../support/vp3Blocks';

const read = vp3Format.read!;
const write = vp3Format.write!;

/** A design with everything VP3 must carry: three threads with names, long jumps, trims, a stop. */
function synthetic(): Pattern {
	const pattern = patternOf([
		[-300, -200, Command.Jump],
		[-300, -200, Command.Stitch],
		[-200, -150, Command.Stitch],
		[-100, -200, Command.Stitch],
		[50, -200, Command.Stitch],
		[50, -200, Command.Trim],
		[2500, 900, Command.Jump],
		[2500, 900, Command.Stitch],
		[2510, 880, Command.Stitch],
		[2510, 880, Command.ColorChange],
		[2400, 800, Command.Stitch],
		[2390, 790, Command.Stitch],
		[2390, 790, Command.Stop],
		[2380, 800, Command.Stitch],
		[2380, 800, Command.Trim],
		[2380, 800, Command.ColorChange],
		[-40000, 100, Command.Jump],
		[-40000, 110, Command.Stitch],
		[-40000, 110, Command.End],
	]);
	pattern.threads = [
		{ color: 0x123456, name: 'Midnight', catalogNumber: '1234', brand: 'Robison-Anton' },
		{ color: 0xfedcba, name: 'Pêche rosée', catalogNumber: '0815', brand: 'Madeira' },
		{ color: 0x00ff7f },
	];
	return pattern;
}

interface Block {
	tag: number;
	at: number;
	end: number;
}

/** The nested block at `at`: its tag byte and where its length says it ends. */
function blockAt(bytes: Uint8Array, at: number): Block {
	const view = new DataView(bytes.buffer, bytes.byteOffset);
	expect(bytes[at]).toBe(0);
	expect(bytes[at + 2]).toBe(0);
	return { tag: bytes[at + 1], at, end: at + 7 + view.getUint32(at + 3, false) };
}

describe('VP3 writer and reader', () => {
	it('round-trips a synthetic design: needle positions, trims and every thread field', () => {
		const design = synthetic();
		const { bytes, warnings } = write(design);
		const back = read(bytes);
		expect(
			compareEvents(
				patternEvents(design, { stopsAsColourChanges: true, collapseMoves: true }),
				patternEvents(back, { stopsAsColourChanges: true, collapseMoves: true }),
				{ splitStitchesAllowed: true },
			).differences,
		).toEqual([]);
		expect(countCommands(back, Command.Trim)).toBe(2);
		expect(countCommands(back, Command.ColorChange)).toBe(3);
		expect(back.threads).toEqual([
			design.threads[0],
			design.threads[1],
			design.threads[1],
			design.threads[2],
		]);
		expect(warnings.join(' ')).toMatch(/no stop code: 1 stop/);
	});

	it('nests its blocks exactly: every length lands on the next tag or the end of the file', () => {
		const design = synthetic();
		const bytes = write(design).bytes;
		const view = new DataView(bytes.buffer);
		expect(Buffer.from(bytes.subarray(0, 6)).toString('latin1')).toBe('%vsm%\0');
		const producerLength = view.getUint16(6, false);
		const file = blockAt(bytes, 8 + producerLength);
		expect(file.tag).toBe(2);
		expect(file.end).toBe(bytes.length);
		// After the empty settings string: extents, the stitch count, the colour count and one design.
		const afterSettings = file.at + 7 + 2;
		expect(view.getInt32(afterSettings, false)).toBe(2510 * 100);
		expect(view.getInt32(afterSettings + 8, false)).toBe(-40000 * 100);
		expect(view.getUint32(afterSettings + 16, false)).toBe(
			countCommands(read(bytes), Command.Stitch),
		);
		expect(bytes[afterSettings + 21]).toBe(4);
		expect(bytes[afterSettings + 24]).toBe(1);
		const design3 = blockAt(bytes, afterSettings + 25);
		expect(design3.tag).toBe(3);
		expect(design3.end).toBe(file.end);
		// The design centre is the middle of the extents, y up.
		expect(view.getInt32(design3.at + 7, false)).toBe(Math.round((-40000 + 2510) / 2) * 100);
		expect(view.getInt32(design3.at + 11, false)).toBe(-Math.round((-200 + 900) / 2) * 100);
		let at = design3.at + 7 + 8 + 3 + 16 + 8 + 2 + 2 + 16 + 6;
		at += 2 + view.getUint16(at, false);
		expect(view.getUint16(at, false)).toBe(4);
		at += 2;
		for (let colour = 0; colour < 4; colour++) {
			const block = blockAt(bytes, at);
			expect(block.tag).toBe(5);
			let inner = block.at + 7 + 8;
			expect(bytes[inner]).toBe(1);
			inner += 2 + 3 + 5;
			for (let text = 0; text < 3; text++) inner += 2 + view.getUint16(inner, false);
			const stitches = blockAt(bytes, inner + 8);
			expect(stitches.tag).toBe(1);
			expect([...bytes.subarray(stitches.at + 7, stitches.at + 10)]).toEqual([0x0a, 0xf6, 0x00]);
			// The stitch block is followed by one zero byte that closes the colour block.
			expect(stitches.end + 1).toBe(block.end);
			at = block.end;
		}
		expect(at).toBe(design3.end);
	});

	it('keeps Star from PES and JEF sewing the same way with exact colours', () => {
		for (const [source, format] of [
			['Star.pes', pesFormat],
			['Star.JEF', jefFormat],
		] as const) {
			const original = format.read!(loadFixture(source).bytes);
			const { bytes, warnings } = write(original);
			const back = read(bytes);
			const comparison = compareEvents(
				patternEvents(original),
				patternEvents(back, { collapseMoves: true }),
				{ movesMayFold: true },
			);
			expect(comparison.differences).toEqual([]);
			// Star's moves all start a colour block, whose thread is cut: nothing is sewn as a long stitch.
			expect(warnings.join(' ')).not.toMatch(/sewn as long stitches/);
			expect(back.threads).toEqual(original.threads);
		}
	});

	it('splits stitches longer than 12.7 mm into short ones and keeps long jumps whole', () => {
		const design = patternOf([
			[0, 0, Command.Stitch],
			[300, 0, Command.Stitch],
			[300, 0, Command.Jump],
			[30000, -30000, Command.Jump],
			[30000, -30000, Command.Stitch],
			[30000, -30000, Command.End],
		]);
		const { bytes, warnings } = write(design);
		const back = read(bytes);
		expect(countCommands(back, Command.Stitch)).toBe(5);
		expect(countCommands(back, Command.Jump)).toBe(1);
		expect([back.xs[back.length - 1], back.ys[back.length - 1]]).toEqual([30000, -30000]);
		expect(warnings.join(' ')).toMatch(/split into shorter stitches/);
	});

	it(
		'encodes moves as VP3 readers decode them: long moves over 25.5 mm are trimmed moves, ' +
			'shorter ones stitches',
		() => {
			const design = patternOf([
				[0, 0, Command.Stitch],
				[10, 0, Command.Stitch],
				[10, 0, Command.Trim],
				[210, 100, Command.Jump],
				[215, 100, Command.Stitch],
				[215, 100, Command.Trim],
				[3215, -2900, Command.Jump],
				[3215, -2900, Command.Stitch],
				[3220, -2900, Command.Stitch],
				[3220, -2900, Command.End],
			]);
			const { bytes, warnings } = write(design);
			const hex = Buffer.from(bytes).toString('hex');
			// After the trim the 20 mm move folds into the next stitch, sent as a long move (80 01 .. 80 02).
			expect(hex).toContain('8003' + '8001' + '00cd' + '0064' + '8002');
			// The 300 mm move is a long move of its own, and the needle then sews where it landed.
			expect(hex).toContain('8003' + '8001' + '0bb8' + 'f448' + '8002' + '0000' + '0500');
			const back = read(bytes);
			const kinds = Array.from(back.commands.subarray(0, back.length));
			expect(kinds.filter((kind) => kind === Command.Jump)).toHaveLength(1);
			expect(countCommands(back, Command.Trim)).toBe(2);
			expect(countCommands(back, Command.Stitch)).toBe(5);
			expect(warnings.join(' ')).not.toMatch(/without a trim/);
		},
	);

	it('reads a long move over 25.5 mm after a stitch as a trim and a move, as Pfaff machines cut there', () => {
		const design = patternOf([
			[0, 0, Command.Stitch],
			[0, 0, Command.Jump],
			[400, 0, Command.Jump],
			[400, 0, Command.Stitch],
			[400, 0, Command.End],
		]);
		const { bytes, warnings } = write(design);
		const back = read(bytes);
		const trimAt = Array.from(back.commands.subarray(0, back.length)).indexOf(Command.Trim);
		expect(back.commands[trimAt + 1]).toBe(Command.Jump);
		expect([back.xs[trimAt + 1], back.ys[trimAt + 1]]).toEqual([400, 0]);
		expect(warnings.join(' ')).toMatch(/1 move\(s\) longer than 25.5 mm .* a trim and a move/);
	});

	it('writes an empty design that reads back empty', () => {
		const back = read(write(new Pattern()).bytes);
		expect(countCommands(back, Command.Stitch)).toBe(0);
		expect(back.commands[back.length - 1]).toBe(Command.End);
	});

	it('is recognised by its signature alone', () => {
		expect(vp3Format.detect!(write(synthetic()).bytes)).toBe(true);
		expect(vp3Format.detect!(loadFixture('Star.pes').bytes)).toBe(false);
	});
});

describe('VP3 reader on damaged files', () => {
	const bytes = write(synthetic()).bytes;

	it('names the colour block whose length runs past the end', () => {
		const damaged = bytes.slice();
		const view = new DataView(damaged.buffer);
		const producerLength = view.getUint16(6, false);
		const file = 8 + producerLength;
		let at = file + 7 + 2 + 25 + 7 + 8 + 3 + 16 + 8 + 2 + 2 + 16 + 6;
		at += 2 + view.getUint16(at, false) + 2;
		view.setUint32(at + 3, 0x7ffffff0, false);
		expect(() => read(damaged)).toThrow(/colour block 1 runs past the end of the file/);
	});

	it('cut short: read to the cut with a warning; cut before any stitch: refused as empty', () => {
		const cut = read(bytes.slice(0, bytes.length - 3));
		expect(cut.warnings).toEqual([
			expect.stringMatching(
				/^The file ends early \(inside its stitch blocks\): read 10 of 11 declared stitches/,
			),
		]);
		// Cut inside the first colour block's thread record: nothing to sew.
		const threadName = bytes.findIndex(
			(_, i) => i > 0 && bytes[i] === 0x4d && bytes[i + 1] === 0x69,
		);
		expect(threadName).toBeGreaterThan(0);
		expect(() => readPattern(bytes.slice(0, threadName), 'vp3')).toThrow(/holds no stitches/);
	});

	it('keeps the lock stitch that follows a long move without its closing 80 02', () => {
		// A long move (40 mm) to a run that starts with short lock stitches back and forth.
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[5, 0, Command.Stitch],
			[400, 0, Command.Jump],
			[403, 0, Command.Stitch],
			[400, 0, Command.Stitch],
			[403, 0, Command.Stitch],
			[430, 0, Command.Stitch],
			[430, 0, Command.End],
		]);
		const bytes = write(pattern).bytes.slice();
		const at = bytes.findIndex(
			(byte, i) =>
				byte === 0x80 && bytes[i + 1] === 0x01 && bytes[i + 6] === 0x80 && bytes[i + 7] === 0x02,
		);
		expect(at).toBeGreaterThan(0);
		// The same design as a writer that goes straight on to the first lock stitch (3, 0) writes it.
		const withoutClose = new Uint8Array([...bytes.subarray(0, at + 6), ...bytes.subarray(at + 8)]);
		const fixed = fixBlockLengths(withoutClose, bytes);
		const read1 = read(bytes);
		const read2 = read(fixed);
		expect(countCommands(read2, Command.Stitch)).toBe(countCommands(read1, Command.Stitch));
		expect(compareEvents(patternEvents(read1), patternEvents(read2)).differences).toEqual([]);
	});
});
