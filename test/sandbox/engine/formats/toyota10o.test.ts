import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { toyota10oFormat } from '../../../../sandbox/engine/formats/toyota10o';
import { Command } from '../../../../sandbox/engine/pattern';
import { fixture } from '../../../support/embroideryFiles';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { entriesOf, patternOf, sewingDifferences } from '../support/referenceDecoding';
import { otherStarSamples } from '../support/starSamples';

const read = toyota10oFormat.read!;
const star = new Uint8Array(fixture('Star.10O'));

describe('Toyota 10O reader', () => {
	it('reads [control, |dy|, |dx|] with 0x40 down and 0x20 left, and its command codes', () => {
		const bytes = new Uint8Array([
			0x8a, 0, 0, 0xd0, 75, 0, 0xe0, 2, 3, 0x81, 0, 0, 0x90, 4, 1, 0x80, 1, 1, 0x85, 0, 0, 0xa0, 0,
			2, 0x87, 0, 0,
		]);
		const pattern = read(bytes);
		expect(entriesOf(pattern)).toEqual([
			[0, 75, Command.Jump],
			[-3, 77, Command.Stitch],
			[-3, 77, Command.Trim],
			[-2, 73, Command.Jump],
			[-1, 72, Command.Stitch],
			[-1, 72, Command.ColorChange],
			[-3, 72, Command.Stitch],
			[-3, 72, Command.End],
		]);
	});

	it('refuses an unknown control, a command that moves, a move past 12.7 mm, an early end, a cut record', () => {
		const change = (offset: number, value: number) => {
			const bytes = star.slice();
			bytes[offset] = value;
			return bytes;
		};
		for (const bytes of [
			change(3 * 50, 0x8b),
			change(3 * 50, 0x00),
			change(3 * 1460 + 1, 1),
			change(3 * 50 + 1, 0x80),
			change(3 * 50, 0x87),
			star.subarray(0, star.length - 1),
			star.subarray(0, star.length - 3),
		])
			expect(() => read(bytes)).toThrow(UnreadableSourceError);
		expect(star[3 * 1460]).toBe(0x85);
	});

	it.each(otherStarSamples('Star.10O'))('refuses $name', ({ bytes }) => {
		expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});
});

describe('Toyota 10O writer', () => {
	const write = toyota10oFormat.write!;

	it("writes Star.10O's own codes: start, stitches and moves, trim, colour change, end", () => {
		const design = patternOf(
			[
				[0, 75, Command.Jump],
				[-3, 77, Command.Stitch],
				[-3, 77, Command.Trim],
				[-2, 73, Command.Jump],
				[-1, 72, Command.Stitch],
				[-1, 72, Command.ColorChange],
				[-3, 72, Command.Stitch],
				[-3, 72, Command.End],
			],
			[0xff0000],
		);
		const { bytes, warnings } = write(design);
		expect(Array.from(bytes)).toEqual([
			0x8a, 0, 0, 0xd0, 75, 0, 0xe0, 2, 3, 0x81, 0, 0, 0x90, 4, 1, 0x80, 1, 1, 0x85, 0, 0, 0xa0, 0,
			2, 0x87, 0, 0,
		]);
		expect(warnings).toEqual(['10O carries no thread colours: they were left out.']);
	});

	it('splits long moves into 12.7 mm records, writes stops as colour changes, and reads back the same', () => {
		const design = patternOf([
			[0, 0, Command.Stitch],
			[300, -40, Command.Stitch],
			[-500, 200, Command.Jump],
			[-490, 210, Command.Stitch],
			[-490, 210, Command.Stop],
			[-480, 220, Command.Stitch],
			[-480, 220, Command.End],
		]);
		const { bytes, warnings } = write(design);
		expect(warnings.join(' ')).toMatch(/split.*stop/s);
		expect(detectFormat(bytes)).toBe('10o');
		const back = read(bytes);
		const asColourChange = patternOf(
			entriesOf(design).map(([x, y, command]) => [
				x,
				y,
				command === Command.Stop ? Command.ColorChange : command,
			]),
		);
		expect(sewingDifferences(asColourChange, back)).toEqual([]);
	});
});
