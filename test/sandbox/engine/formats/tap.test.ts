import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { dstFormat } from '../../../../sandbox/engine/formats/dst';
import { tapFormat } from '../../../../sandbox/engine/formats/tap';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { Command } from '../../../../sandbox/engine/pattern';
import { fixture } from '../../../support/embroideryFiles';
import {
	compareEvents,
	patternEvents,
	patternOf,
	sewingDifferences,
} from '../support/referenceDecoding';
import { otherStarSamples } from '../support/starSamples';

const read = tapFormat.read!;
const write = tapFormat.write!;
const star = new Uint8Array(fixture('Star.TAP'));

describe('TAP reader', () => {
	it("holds Star.DST's records without the header: both files' records read alike up to the end", () => {
		const dst = dstFormat.read!(new Uint8Array(fixture('Star.DST')));
		const tap = read(star);
		// Star.TAP's export drops Star.DST's repeated tip stitches; where the needle sews is the same.
		const stitches = (events: ReturnType<typeof patternEvents>) =>
			events.filter(
				(event, i) =>
					event.kind !== 'move' && JSON.stringify(event) !== JSON.stringify(events[i - 1]),
			);
		expect(
			compareEvents(stitches(patternEvents(dst)), stitches(patternEvents(tap))).differences,
		).toEqual([]);
	});

	it('refuses a file whose END record is not its last, or a record without Tajima bits, or a cut record', () => {
		const early = star.slice();
		early[3 * 100 + 2] = 0xf3;
		const bits = star.slice();
		bits[3 * 100 + 2] = 0x00;
		for (const bytes of [
			early,
			bits,
			star.subarray(0, star.length - 1),
			star.subarray(0, star.length - 3),
		])
			expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});

	it('reads zero bytes after the END record, as real TAP files have; anything else there is refused', () => {
		// Embroidermodder's sample TAP files end 00 00 F3 and then six zero bytes.
		const padded = Uint8Array.from([...star, 0, 0, 0, 0, 0, 0]);
		expect(read(padded).length).toBe(read(star).length);
		expect(detectFormat(padded, 'design.tap')).toBe('tap');
		const trailing = Uint8Array.from([...star, 0, 0, 0x83, 0, 0, 0]);
		expect(() => read(trailing)).toThrow(/its END record \(record \d+\) is not its last/);
	});

	it.each(otherStarSamples('Star.TAP'))('refuses $name', ({ bytes }) => {
		expect(() => read(bytes)).toThrow(UnreadableSourceError);
	});
});

describe('TAP writer', () => {
	it('writes DST records without a header, which read back to the same design', () => {
		const pattern = patternOf(
			[
				[0, 0, Command.Stitch],
				[300, -40, Command.Stitch],
				[300, -40, Command.Trim],
				[-500, 200, Command.Jump],
				[-490, 210, Command.Stitch],
				[-490, 210, Command.ColorChange],
				[-480, 220, Command.Stitch],
				[-480, 220, Command.End],
			],
			[0xff0000, 0x00ff00],
		);
		const { bytes, warnings } = write(pattern);
		expect(warnings.join(' ')).toContain('split');
		expect(bytes.length % 3).toBe(0);
		expect(Array.from(bytes.subarray(bytes.length - 3))).toEqual([0, 0, 0xf3]);
		expect(detectFormat(bytes)).toBe('tap');
		const back = read(bytes);
		expect(sewingDifferences(pattern, back)).toEqual([]);
		// The same records as DST's, after its 512-byte header.
		expect(Array.from(bytes)).toEqual(Array.from(dstFormat.write!(pattern).bytes.subarray(512)));
	});
});
