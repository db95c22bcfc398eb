import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { pecFormat } from '../../../../sandbox/engine/formats/pec';
import { pesFormat } from '../../../../sandbox/engine/formats/pes';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import {
	compareEvents,
	compareWithReference,
	loadFixture,
	patternEvents,
	patternOf,
	type Entry,
} from '../support/referenceDecoding';

const read = pesFormat.read!;
const write = pesFormat.write!;

function entriesOf(pattern: Pattern): Entry[] {
	return Array.from({ length: pattern.length }, (_, i) => [
		pattern.xs[i],
		pattern.ys[i],
		pattern.commands[i] as Command,
	]);
}

function u32le(bytes: Uint8Array, at: number): number {
	return new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);
}

function text(bytes: Uint8Array, from: number, length: number): string {
	return Buffer.from(bytes.subarray(from, from + length)).toString('latin1');
}

describe('PES reader', () => {
	const fixture = loadFixture('Star.pes');

	it("takes the threads from the version 7 header's thread list", () => {
		const pattern = read(fixture.bytes);
		expect(
			pattern.threads.map((thread) => ({
				hex: '#' + thread.color.toString(16).padStart(6, '0'),
				description: thread.name,
				catalog: thread.catalogNumber,
			})),
		).toEqual(fixture.expected.threads);
		expect(pattern.threads[0].brand).toBe('EMBROIDERY');
	});

	it('falls back to the PEC chart colours when the version has no thread list', () => {
		const asVersion1 = fixture.bytes.slice();
		asVersion1.set(Buffer.from('#PES0001', 'latin1'), 0);
		const pattern = read(asVersion1);
		expect(pattern.threads).toEqual([
			{ color: 0xed171f, name: 'Red', catalogNumber: '5', brand: 'Brother' },
			{ color: 0xf0f0f0, name: 'White', catalogNumber: '29', brand: 'Brother' },
		]);
		expect(compareWithReference(pattern, fixture).differences).toEqual([]);
	});

	it('reads the thread list of a version 6 header laid out as PE-Design writes it', () => {
		const pes = fixture.bytes;
		const pecOffset = u32le(pes, 8);
		const header: number[] = [...Buffer.from('#PES0060', 'latin1'), 0, 0, 0, 0];
		const word = (value: number) => header.push(value & 0xff, (value >> 8) & 0xff);
		const pesString = (value: string) => header.push(value.length, ...Buffer.from(value, 'latin1'));
		word(1);
		header.push(0x30, 0x32);
		for (const field of ['Star', 'Shapes', 'Someone', 'star', 'two colours']) pesString(field);
		for (let field = 0; field < 18; field++) word(field === 11 ? 7 : 0);
		pesString('');
		for (let float = 0; float < 6; float++) header.push(0, 0, 0, 0);
		word(0);
		word(0);
		word(0);
		word(2);
		for (const [catalog, rgb, name] of [
			['1902', [0xaa, 0x10, 0x20], 'Cherry'],
			['1010', [0xfa, 0xfa, 0xf0], 'Snow'],
		] as const) {
			pesString(catalog);
			header.push(...rgb, 0, 0x0a, 0, 0, 0);
			pesString(name);
			pesString('Madeira');
			pesString('Madeira');
		}
		const file = new Uint8Array([...header, ...pes.subarray(pecOffset)]);
		new DataView(file.buffer).setUint32(8, header.length, true);
		const pattern = read(file);
		expect(pattern.threads).toEqual([
			{ color: 0xaa1020, name: 'Cherry', catalogNumber: '1902', brand: 'Madeira' },
			{ color: 0xfafaf0, name: 'Snow', catalogNumber: '1010', brand: 'Madeira' },
		]);
		expect(compareWithReference(pattern, fixture).differences).toEqual([]);
	});

	it('is recognised by content, not by name', () => {
		expect(pesFormat.detect!(fixture.bytes)).toBe(true);
		expect(pesFormat.detect!(fixture.bytes.subarray(0, 200))).toBe(false);
		expect(
			pesFormat.detect!(new Uint8Array(Buffer.from('#PES0001 but nothing else, really'))),
		).toBe(false);
	});

	it('rejects truncated files and wild PEC offsets with UnreadableSourceError', () => {
		// Cut before the PEC block's stitches; a file cut inside them is read to the cut (endsEarly.test.ts).
		for (const length of [0, 5, 11, 12, 100, 0x266, 0x266 + 500]) {
			expect(() => read(fixture.bytes.subarray(0, length))).toThrow(UnreadableSourceError);
		}
		const wildOffset = fixture.bytes.slice();
		new DataView(wildOffset.buffer).setUint32(8, 0xfffffff0, true);
		expect(() => read(wildOffset)).toThrow(/does not point to a PEC stitch block/);
	});

	it('ignores a damaged thread list and keeps the chart colours', () => {
		const damaged = fixture.bytes.slice();
		// The thread count of Star.pes sits at 0x59; claim 60000 threads.
		new DataView(damaged.buffer).setUint16(0x59, 60000, true);
		const pattern = read(damaged);
		expect(pattern.threads.map((thread) => thread.name)).toEqual(['Red', 'White']);
	});
});

describe('PES writer', () => {
	it('round-trips Star.pes exactly: every entry, command and thread', () => {
		const original = read(loadFixture('Star.pes').bytes);
		const { bytes, warnings } = write(original);
		const back = read(bytes);
		expect(entriesOf(back)).toEqual(entriesOf(original));
		expect(back.threads).toEqual(original.threads);
		// Both Star colours are chart colours, so nothing needed snapping.
		expect(warnings).toEqual([]);
	});

	it('writes a version 6 header whose offset points at the PEC block, with the colour addendum after it', () => {
		const pattern = patternOf(
			[
				[0, 0, Command.Stitch],
				[300, 200, Command.Stitch],
				[300, 200, Command.ColorChange],
				[-100, 50, Command.Stitch],
				[-100, 50, Command.End],
			],
			[0xed171f, 0x0a55a3],
		);
		const { bytes } = write(pattern);
		expect(text(bytes, 0, 8)).toBe('#PES0060');
		const pec = u32le(bytes, 8);
		const view = new DataView(bytes.buffer);
		// The hoop flag and size: the design fits the 100 x 100 mm hoop.
		expect([view.getUint16(12, true), text(bytes, 14, 2)]).toEqual([0, '02']);
		expect([view.getUint16(25, true), view.getUint16(27, true)]).toEqual([100, 100]);
		expect(text(bytes, 0, pec)).toContain('CEmbOne');
		expect(text(bytes, 0, pec)).toContain('CSewSeg');
		expect(text(bytes, pec, 20)).toBe('LA:Untitled        \r');
		// Colour list: count - 1, then chart codes Red (5) and Blue (2).
		expect([...bytes.subarray(pec + 48, pec + 51)]).toEqual([1, 5, 2]);
		// Width and height of the design in the stitch section.
		expect([view.getUint16(pec + 520, true), view.getUint16(pec + 522, true)]).toEqual([400, 200]);
		const sectionLength = bytes[pec + 514] | (bytes[pec + 515] << 8) | (bytes[pec + 516] << 16);
		expect(bytes[pec + 512 + sectionLength - 1]).toBe(0xff);
		// After the stitches come 1 + 2 icons of 6 x 38 bytes, then the addendum: the chart codes in 128
		// bytes, a blank 0x90-byte record per thread, each RGB (little-endian), and a closing zero word.
		const addendum = pec + 512 + sectionLength + 3 * 228;
		expect([...bytes.subarray(addendum, addendum + 4)]).toEqual([1, 5, 2, 0x20]);
		const rgb = addendum + 128 + 2 * 0x90;
		expect([...bytes.subarray(rgb, rgb + 8)]).toEqual([0x1f, 0x17, 0xed, 0xa3, 0x55, 0x0a, 0, 0]);
		expect(bytes.length).toBe(rgb + 8);
	});

	it("lists each block's thread exactly for PE-Design, while the PEC block machines sew has chart colours", () => {
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[1500, 0, Command.Stitch],
			[1500, 0, Command.ColorChange],
			[1500, 1000, Command.Stitch],
			[1500, 1000, Command.End],
		]);
		pattern.threads = [
			{ color: 0x123456, name: 'Midnight Sea', catalogNumber: '1843', brand: 'Madeira Polyneon' },
			{ color: 0xfedcba, name: 'Blush', catalogNumber: '2155', brand: 'Isacord' },
		];
		const { bytes, warnings } = write(pattern);
		expect(read(bytes).threads).toEqual(pattern.threads);
		// 150 mm wide: the header declares the 130 x 180 mm hoop.
		expect(new DataView(bytes.buffer).getUint16(12, true)).toBe(1);
		const pec = u32le(bytes, 8);
		const asPec = pecFormat.read!(
			new Uint8Array([...Buffer.from('#PEC0001'), ...bytes.subarray(pec)]),
		);
		expect(asPec.threads.map((thread) => thread.brand)).toEqual(['Brother', 'Brother']);
		expect(asPec.threads.map((thread) => thread.color)).not.toContain(0x123456);
		expect(warnings).toEqual([
			expect.stringMatching(
				new RegExp(
					'^PES keeps the exact threads in its header, which PE-Design reads, but machines sew from ' +
						"Brother's 64-colour thread chart and show the nearest: #123456 → ",
				),
			),
		]);
	});

	it('describes the stitches as PE-Design segments: stitch runs, jumps and colour codes', () => {
		const pattern = patternOf(
			[
				[0, 0, Command.Stitch],
				[100, 0, Command.Stitch],
				[100, 0, Command.Trim],
				[500, 200, Command.Jump],
				[600, 300, Command.Jump],
				[600, 300, Command.Stitch],
				[600, 300, Command.ColorChange],
				[650, 300, Command.Stitch],
				[650, 300, Command.End],
			],
			[0xed171f, 0x0a55a3],
		);
		const bytes = write(pattern).bytes;
		const view = new DataView(bytes.buffer);
		const word = (at: number) => view.getInt16(at, true);
		// The segment count sits before the 0xFFFF 0x0000 that closes CEmbOne and the 7 of "CSewSeg".
		const sewSeg = Buffer.from(bytes).indexOf('CSewSeg');
		expect(word(sewSeg - 8)).toBe(4);
		let at = sewSeg + 7;
		const segments: number[][] = [];
		for (let segment = 0; segment < 4; segment++) {
			if (segment > 0) {
				expect(view.getUint16(at, true)).toBe(0x8003);
				at += 2;
			}
			const count = word(at + 4);
			const points = Array.from({ length: count * 2 }, (_, i) => word(at + 6 + 2 * i));
			segments.push([word(at), word(at + 2), ...points]);
			at += 6 + 4 * count;
		}
		// Flag, colour (the thread's index in the header's list), points relative to the bottom-left (0, 300).
		expect(segments).toEqual([
			[0, 0, 0, -300, 100, -300],
			[1, 0, 100, -300, 600, 0],
			[0, 0, 600, 0],
			[0, 1, 650, 0],
		]);
		// The colour log: segment 0 starts thread 0, segment 3 thread 1; then two zero words.
		const words = Array.from({ length: 7 }, (_, i) => word(at + 2 * i));
		expect(words).toEqual([2, 0, 0, 3, 1, 0, 0]);
		// Version 6's object order: two zero longs, then each colour change's index and a zero.
		const longs = Array.from({ length: 6 }, (_, i) => u32le(bytes, at + 14 + 4 * i));
		expect(longs).toEqual([0, 0, 0, 0, 1, 0]);
		expect(at + 14 + 24).toBe(u32le(bytes, 8));
	});

	it('keeps trims, stops and long jumps where the needle goes', () => {
		const pattern = patternOf(
			[
				[0, 0, Command.Stitch],
				[20, 0, Command.Stitch],
				[20, 0, Command.Trim],
				[5000, -3000, Command.Jump],
				[5000, -3000, Command.Stitch],
				[5010, -2990, Command.Stitch],
				[5010, -2990, Command.Stop],
				[5000, -2990, Command.Stitch],
				[5000, -2990, Command.Trim],
				[5000, -2990, Command.ColorChange],
				[5030, -2990, Command.Stitch],
				[5030, -2990, Command.End],
			],
			[0x123456, 0xfedcba],
		);
		const { bytes, warnings } = write(pattern);
		const back = read(bytes);
		expect(
			compareEvents(patternEvents(pattern), patternEvents(back, { collapseMoves: true }))
				.differences,
		).toEqual([]);
		expect(countCommands(back, Command.Trim)).toBe(2);
		expect(countCommands(back, Command.Stop)).toBe(1);
		expect(countCommands(back, Command.ColorChange)).toBe(1);
		expect(warnings.join(' ')).toMatch(/long jump/);
		expect(warnings.join(' ')).toMatch(/show the nearest/);
	});

	it('keeps a colour change between colours that snap to the same chart thread (the machine would read a stop)', () => {
		const pattern = patternOf(
			[
				[0, 0, Command.Stitch],
				[0, 0, Command.ColorChange],
				[10, 0, Command.Stitch],
				[10, 0, Command.End],
			],
			[0xee1820, 0xec1620],
		);
		const bytes = write(pattern).bytes;
		const back = read(bytes);
		expect(countCommands(back, Command.ColorChange)).toBe(1);
		expect(back.threads.map((thread) => thread.color)).toEqual([0xee1820, 0xec1620]);
		const pec = u32le(bytes, 8);
		const [, first, second] = bytes.subarray(pec + 48, pec + 51);
		expect(first).toBe(5);
		expect(second).not.toBe(5);
	});

	it('gives a design without threads distinct default colours', () => {
		const pattern = patternOf([
			[0, 0, Command.Stitch],
			[0, 0, Command.ColorChange],
			[10, 0, Command.Stitch],
			[10, 0, Command.ColorChange],
			[20, 0, Command.Stitch],
		]);
		const { bytes, warnings } = write(pattern);
		const back = read(bytes);
		expect(countCommands(back, Command.ColorChange)).toBe(2);
		expect(new Set(back.threads.map((thread) => thread.color)).size).toBe(3);
		expect(warnings.join(' ')).toMatch(/default colours/);
	});

	it('writes a large design that grows its buffer many times', () => {
		const pattern = new Pattern();
		for (let i = 0; i < 100_000; i++)
			pattern.add((i * 37) % 1000, Math.floor(i / 50) % 900, Command.Stitch);
		pattern.add(pattern.lastX(), pattern.lastY(), Command.End);
		const back = read(write(pattern).bytes);
		expect(back.length).toBe(pattern.length);
		expect(
			compareEvents(patternEvents(pattern), patternEvents(back, { collapseMoves: true }))
				.differences,
		).toEqual([]);
	});

	it('writes an empty design as a valid file', () => {
		const back = read(write(new Pattern()).bytes);
		expect(entriesOf(back)).toEqual([[0, 0, Command.End]]);
	});
});
