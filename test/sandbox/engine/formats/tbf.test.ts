import { UnreadableSourceError, UnwritablePatternError } from '../../../../sandbox/engine/errors';
import { dstFormat } from '../../../../sandbox/engine/formats/dst';
import { tbfFormat } from '../../../../sandbox/engine/formats/tbf';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { entriesOf, patternOf, sewingDifferences } from '../support/referenceDecoding';
import { headerNumbers } from '../support/tajimaHeader';

const read = tbfFormat.read!;
const write = tbfFormat.write!;

/** A TBF file put together by hand from the format's layout: header fields at their offsets, then records. */
function tbfFile(
	needleOrder: number[],
	needleColours: number[],
	records: number[][],
	tail = [0x1a],
): Uint8Array {
	const bytes = new Uint8Array(0x600 + records.length * 3 + tail.length).fill(0x20);
	const put = (offset: number, text: string) => bytes.set(Buffer.from(text, 'latin1'), offset);
	put(0, '3.00');
	put(0x80, 'LA:Handmade        \rST:      3\rCO:  1\r');
	put(0x107, 'DO:');
	bytes.fill(0, 0x10a, 0x20a);
	bytes.set(needleOrder, 0x10a);
	put(0x20a, '\rDA:');
	needleColours.forEach((colour, i) =>
		bytes.set([0x45, colour >> 16, (colour >> 8) & 0xff, colour & 0xff, 0x20], 0x20e + 5 * i),
	);
	put(0x376, '\r\x1a');
	bytes.set(records.flat(), 0x600);
	bytes.set(tail, 0x600 + records.length * 3);
	return bytes;
}

describe('TBF reader', () => {
	it("reads [dx, dy, control] with y up; each block's thread is its needle's (DO) colour (DA)", () => {
		const bytes = tbfFile(
			[2, 1],
			[0x112233, 0xe74100],
			[
				[10, 0xfb, 0x90],
				[3, 4, 0x80],
				[0, 0, 0x90],
				[0xfe, 0, 0x90],
				[0, 0, 0x81],
				[1, 1, 0x80],
				[0, 0, 0x40],
				[0, 2, 0x80],
				[0, 0, 0x86],
				[0, 0, 0x8f],
			],
		);
		expect(detectFormat(bytes)).toBe('tbf');
		const pattern = read(bytes);
		expect(entriesOf(pattern)).toEqual([
			[10, 5, Command.Jump],
			[13, 1, Command.Stitch],
			[13, 1, Command.Trim],
			[11, 1, Command.Jump],
			[11, 1, Command.ColorChange],
			[12, 0, Command.Stitch],
			[12, 0, Command.Stop],
			[12, -2, Command.Stitch],
			[12, -2, Command.Trim],
			[12, -2, Command.End],
		]);
		// Block 0 is sewn with needle 2, block 1 with needle 1.
		expect(pattern.threads).toEqual([{ color: 0xe74100 }, { color: 0x112233 }]);
	});

	it("takes a needle change before the first stitch as the first block's own needle", () => {
		const pattern = read(
			tbfFile(
				[3],
				[1, 2, 0x00ff00],
				[
					[0, 0, 0x81],
					[5, 5, 0x80],
					[0, 0, 0x8f],
				],
			),
		);
		expect(entriesOf(pattern)).toEqual([
			[5, -5, Command.Stitch],
			[5, -5, Command.End],
		]);
		expect(pattern.threads).toEqual([{ color: 0x00ff00 }]);
	});

	it('refuses an unknown control and bytes after the end record; reads a file cut before it, and says so', () => {
		const stitch = [1, 1, 0x80];
		for (const bytes of [
			tbfFile([1], [0], [stitch, [0, 0, 0x82], [0, 0, 0x8f]]),
			tbfFile([1], [0], [stitch, [0, 0, 0x8f]], [0x1a, 0x00]),
		])
			expect(() => read(bytes)).toThrow(UnreadableSourceError);
		const cut = read(tbfFile([1], [0], [stitch, stitch], []));
		expect(cut.warnings).toEqual([
			'The file ends early (without its END record): read 2 stitches up to its last whole record. ' +
				'The rest of the design is missing; check the file.',
		]);
	});

	it('is claimed by its labelled header only', () => {
		const bytes = tbfFile(
			[1],
			[0],
			[
				[1, 1, 0x80],
				[0, 0, 0x8f],
			],
		);
		expect(tbfFormat.detect!(bytes)).toBe(true);
		const unlabelled = bytes.slice();
		unlabelled[0x20b] = 0x20;
		expect(tbfFormat.detect!(unlabelled)).toBe(false);
		expect(tbfFormat.detect!(new Uint8Array(fixture('Star.DST')))).toBe(false);
		expect(dstFormat.detect!(bytes)).toBe(false);
	});
});

describe('TBF writer', () => {
	const design = patternOf(
		[
			[0, 0, Command.Stitch],
			[300, -40, Command.Stitch],
			[300, -40, Command.Trim],
			[-500, 200, Command.Jump],
			[-490, 210, Command.Stitch],
			[-490, 210, Command.ColorChange],
			[-480, 220, Command.Stitch],
			[-480, 220, Command.Stop],
			[-470, 220, Command.Stitch],
			[-470, 220, Command.ColorChange],
			[-460, 230, Command.Stitch],
			[-460, 230, Command.End],
		],
		[0xff0000, 0x00aa00, 0xff0000],
	);

	it("writes the needle of each block (one needle per colour) and each needle's colour into the header", () => {
		const { bytes } = write(design);
		const text = Buffer.from(bytes.subarray(0, 0x600)).toString('latin1');
		expect(text.startsWith('3.00')).toBe(true);
		expect(text.slice(0x80, 0x83)).toBe('LA:');
		expect(Array.from(bytes.subarray(0x10a, 0x10e))).toEqual([1, 2, 1, 0]);
		expect(Array.from(bytes.subarray(0x20e, 0x218))).toEqual([
			0x45, 0xff, 0, 0, 0x20, 0x45, 0, 0xaa, 0, 0x20,
		]);
		expect(text.slice(0x376, 0x378)).toBe('\r\x1a');
		const fields = headerNumbers(bytes, 0x80);
		expect(fields.ST).toBe((bytes.length - 0x600 - 1) / 3);
		expect(fields.CO).toBe(2);
		expect([fields['+X'], fields['-X'], fields['+Y'], fields['-Y']]).toEqual([300, 500, 40, 230]);
		expect(Array.from(bytes.subarray(bytes.length - 4))).toEqual([0, 0, 0x8f, 0x1a]);
	});

	it('reads back the same sewing, trims, stop and thread colours', () => {
		const { bytes, warnings } = write(design);
		expect(warnings.join(' ')).toContain('split');
		expect(detectFormat(bytes)).toBe('tbf');
		const back = read(bytes);
		expect(sewingDifferences(design, back)).toEqual([]);
		expect(back.threads).toEqual([{ color: 0xff0000 }, { color: 0x00aa00 }, { color: 0xff0000 }]);
		expect(
			entriesOf(back).filter(
				([, , command]) => command === Command.Trim || command === Command.Stop,
			),
		).toEqual([
			[300, -40, Command.Trim],
			[-480, 220, Command.Stop],
		]);
	});

	it('says what it leaves out, and refuses more colours than its needle table holds', () => {
		const named = patternOf(
			[
				[0, 0, Command.Stitch],
				[0, 0, Command.End],
			],
			[0x123456],
		);
		named.threads[0].name = 'Poppy';
		expect(write(named).warnings.join(' ')).toMatch(/colour only/);
		const many = new Pattern();
		for (let block = 0; block < 73; block++) {
			many.add(block, 0, Command.Stitch);
			many.add(block, 0, Command.ColorChange);
		}
		many.add(0, 0, Command.End);
		many.threads = Array.from({ length: 74 }, (_, i) => ({ color: i * 1000 }));
		expect(() => write(many)).toThrow(UnwritablePatternError);
	});
});
