import { jefFormat } from '../../../../sandbox/engine/formats/jef';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { compareEvents, loadFixture, patternEvents, patternOf } from '../support/referenceDecoding';

const read = jefFormat.read!;
const write = jefFormat.write!;

function u32(bytes: Uint8Array, at: number): number {
	return new DataView(bytes.buffer, bytes.byteOffset).getInt32(at, true);
}

describe('JEF reader', () => {
	const fixture = loadFixture('Star.JEF');

	it("names the threads from Janome's chart", () => {
		const pattern = read(fixture.bytes);
		expect(
			pattern.threads.map((thread) => ({
				hex: '#' + thread.color.toString(16).padStart(6, '0'),
				description: thread.name,
				catalog: thread.catalogNumber,
			})),
		).toEqual(fixture.expected.threads);
		expect(pattern.threads[0].brand).toBe('Janome');
	});

	it('is recognised by the structure of its header', () => {
		expect(jefFormat.detect!(fixture.bytes)).toBe(true);
		expect(jefFormat.detect!(loadFixture('Star.pes').bytes)).toBe(false);
		expect(jefFormat.detect!(loadFixture('Star.DST').bytes)).toBe(false);
	});

	it('reads a long jump after sewing as trimmed, and a colour 0 block as a stop', () => {
		const header = new Uint8Array(116 + 3 * 8);
		const view = new DataView(header.buffer);
		view.setUint32(0, header.length, true);
		header.set(Buffer.from('20240102030405'), 8);
		view.setUint32(24, 3, true);
		view.setUint32(116, 10, true);
		view.setUint32(120, 0, true);
		view.setUint32(124, 2, true);
		const body = [
			5, 0, 0x80, 2, 40, 0, 0x80, 2, 0, 0, 5, 0, 0x80, 1, 0, 0, 5, 0, 0x80, 1, 0, 0, 5, 0, 0x80,
			0x10,
		];
		const pattern = read(new Uint8Array([...header, ...body]));
		const listed = Array.from({ length: pattern.length }, (_, i) => [
			pattern.xs[i],
			pattern.commands[i],
		]);
		expect(listed).toEqual([
			[5, Command.Stitch],
			[5, Command.Trim],
			[45, Command.Jump],
			[50, Command.Stitch],
			[50, Command.Stop],
			[55, Command.Stitch],
			[55, Command.ColorChange],
			[60, Command.Stitch],
			[60, Command.End],
		]);
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Red', 'White']);
	});

	it('refuses a header that claims more colours than the file holds', () => {
		const hugeColourCount = fixture.bytes.slice();
		new DataView(hugeColourCount.buffer).setUint32(24, 0x7fffffff, true);
		expect(() => read(hugeColourCount)).toThrow(/claims 2147483647 colours/);
	});

	it("refuses stitches that end elsewhere than the header's record length says: another file behind it", () => {
		// Star.JEF declares 2,549 units: 2,540 stitches, 4 commands of 2 and the end code.
		expect(u32(fixture.bytes, 28)).toBe(2549);
		const dsz = loadFixture('Star.DSZ').bytes;
		// Star.JEF's first 40 bytes over Star.DSZ: the DSZ bytes read as JEF stitches.
		const spliced = Uint8Array.from([...fixture.bytes.subarray(0, 40), ...dsz.subarray(40)]);
		spliced.set(fixture.bytes.subarray(40, 132), 40);
		expect(() => read(spliced)).toThrow(
			/its header declares 2549 record units \(2 bytes each\), but its end-of-design code comes after \d+/,
		);
		const unset = fixture.bytes.slice();
		unset.fill(0, 28, 32);
		expect(read(unset).length).toBe(read(fixture.bytes).length);
	});

	it('reads extents given from the centre of a design sewn from a corner, if the design fits their size', () => {
		// embroidery-converter-kit's golden JEFs declare 450 each side of a design sewn from (0, 0) to (900, 650).
		const design = patternOf([
			[0, 0, Command.Stitch],
			[900, 0, Command.Stitch],
			[900, 650, Command.Stitch],
			[0, 650, Command.Stitch],
			[0, 650, Command.End],
		]);
		const declaring = (left: number, top: number, right: number, bottom: number) => {
			const bytes = write(design).bytes.slice();
			const view = new DataView(bytes.buffer);
			[left, top, right, bottom].forEach((extent, i) => view.setInt32(36 + 4 * i, extent, true));
			return bytes;
		};
		expect(read(declaring(450, 325, 450, 325)).length).toBe(read(write(design).bytes).length);
		// Star.JEF's first move changed moves the whole star off its extents (295 left, 296 right): refused.
		const moved = fixture.bytes.slice();
		moved[132] ^= 0x5a;
		expect(() => read(moved)).toThrow(
			/declares extents of 295 left, 311 up, 296 right and 312 down/,
		);
		// Narrower than the design either way: refused.
		expect(() => read(declaring(300, 325, 300, 325))).toThrow(
			/declares extents of 300 left, 325 up, 300 right and 325 down \(0\.1 mm\), but its stitches reach/,
		);
	});

	it('refuses extents past the 10 m any design reaches: another file behind a JEF header', () => {
		// bench:fuzz's garbage (seed 2): Star.JEF's first 32 bytes over Star.EXP, whose records are JEF's too.
		// The extents are Star.EXP's f1 0c pairs, 217 million (0.1 mm) each; it read as a cut star (97.5%).
		const exp = loadFixture('Star.EXP').bytes;
		const spliced = Uint8Array.from([...fixture.bytes.subarray(0, 32), ...exp.subarray(32)]);
		expect(() => read(spliced)).toThrow(/beyond the 10 m any design can reach/);
		const far = fixture.bytes.slice();
		new DataView(far.buffer).setInt32(36, 100_001, true);
		expect(() => read(far)).toThrow(/declares extents of 100001 left/);
		new DataView(far.buffer).setInt32(36, 100_000, true);
		expect(read(far).length).toBe(read(fixture.bytes).length);
	});

	it('refuses a control code JEF does not use, and a header that is not JEF', () => {
		const stitches = u32(fixture.bytes, 0);
		const unknownCode = fixture.bytes.slice();
		unknownCode.set([0x80, 0x33, 0, 0], stitches);
		expect(() => read(unknownCode)).toThrow(
			new RegExp(`control code 0x33 at byte ${stitches} is not JEF's`),
		);
		const noDate = fixture.bytes.slice();
		noDate[8] = 0x41;
		expect(() => read(noDate)).toThrow(/header does not hold a JEF stitch offset/);
	});
});

describe('JEF writer', () => {
	it('round-trips Star.JEF: same needle positions, colour change and chart threads', () => {
		const original = read(loadFixture('Star.JEF').bytes);
		const { bytes, warnings } = write(original);
		const back = read(bytes);
		expect(compareEvents(patternEvents(original), patternEvents(back)).differences).toEqual([]);
		expect(back.threads).toEqual(original.threads);
		expect(warnings).toEqual([]);
	});

	it('writes the header: offsets, counts, hoop code from the extents and per-side distances', () => {
		const original = read(loadFixture('Star.JEF').bytes);
		const bytes = write(original).bytes;
		expect(u32(bytes, 0)).toBe(116 + 2 * 8);
		expect(Buffer.from(bytes.subarray(8, 22)).toString('latin1')).toMatch(/^20\d{12}$/);
		expect(u32(bytes, 24)).toBe(2);
		expect(u32(bytes, 28)).toBe((bytes.length - u32(bytes, 0)) / 2);
		// 59.1 x 62.3 mm fits the 110 x 110 mm hoop (code 0).
		expect(u32(bytes, 32)).toBe(0);
		expect([u32(bytes, 36), u32(bytes, 40), u32(bytes, 44), u32(bytes, 48)]).toEqual([
			295, 311, 296, 312,
		]);
		expect([u32(bytes, 52), u32(bytes, 56), u32(bytes, 60), u32(bytes, 64)]).toEqual([
			255, 239, 254, 238,
		]);
		// The 50 x 50 mm hoop is too small: -1 on every side.
		expect([u32(bytes, 68), u32(bytes, 72), u32(bytes, 76), u32(bytes, 80)]).toEqual([
			-1, -1, -1, -1,
		]);
		expect([u32(bytes, 116), u32(bytes, 120)]).toEqual([33, 51]);
	});

	it('snaps colours to the chart with a warning and keeps colour changes between look-alike colours', () => {
		const pattern = patternOf(
			[
				[0, 0, Command.Stitch],
				[10, 0, Command.Stitch],
				[10, 0, Command.ColorChange],
				[20, 0, Command.Stitch],
				[20, 0, Command.Stop],
				[30, 0, Command.Stitch],
			],
			[0xfe0101, 0xfd0000],
		);
		const { bytes, warnings } = write(pattern);
		const back = read(bytes);
		expect(countCommands(back, Command.ColorChange)).toBe(1);
		expect(countCommands(back, Command.Stop)).toBe(1);
		expect(back.threads[0].name).toBe('Red');
		expect(back.threads[1].name).not.toBe('Red');
		expect(warnings.join(' ')).toMatch(
			/Janome's 78-colour thread chart.*#fe0101 → Red \(225, #ff0000\)/,
		);
	});

	it('splits moves longer than 12.7 mm and flips y for the machine', () => {
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[0, -10, Command.Stitch],
			[0, -10, Command.Trim],
			[900, 400, Command.Jump],
			[905, 400, Command.Stitch],
			[905, 400, Command.End],
		]);
		const { bytes, warnings } = write(pattern);
		const stitchStart = u32(bytes, 0);
		// The second stitch goes up 1 mm: +10 in JEF's y-up bytes.
		expect([...bytes.subarray(stitchStart + 2, stitchStart + 4)]).toEqual([0, 10]);
		const back = read(bytes);
		expect(
			compareEvents(patternEvents(pattern), patternEvents(back, { collapseMoves: true }))
				.differences,
		).toEqual([]);
		expect(countCommands(back, Command.Trim)).toBe(1);
		expect(warnings.join(' ')).toMatch(/long jump/);
	});

	it('writes a trim before a short move as three zero-length jumps that read back as one trim', () => {
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[10, 0, Command.Stitch],
			[10, 0, Command.Trim],
			[15, 0, Command.Jump],
			[20, 0, Command.Stitch],
			[20, 0, Command.End],
		]);
		const bytes = write(pattern).bytes;
		const stitchStart = u32(bytes, 0);
		expect([...bytes.subarray(stitchStart + 4, stitchStart + 16)]).toEqual([
			0x80, 2, 0, 0, 0x80, 2, 0, 0, 0x80, 2, 0, 0,
		]);
		const back = read(bytes);
		expect(countCommands(back, Command.Trim)).toBe(1);
		expect(compareEvents(patternEvents(pattern), patternEvents(back)).differences).toEqual([]);
	});

	it('declares the largest hoop when none is big enough (the job warns of it, engine/hoops.ts)', () => {
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[2500, 0, Command.Jump],
			[2500, 10, Command.Stitch],
		]);
		const { bytes, warnings } = write(pattern);
		expect(warnings.join(' ')).not.toMatch(/hoop/);
		expect(u32(bytes, 32)).toBe(4);
	});
});
