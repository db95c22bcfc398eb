import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { dsbFormat } from '../../../../sandbox/engine/formats/dsb';
import { dstFormat } from '../../../../sandbox/engine/formats/dst';
import { dszFormat } from '../../../../sandbox/engine/formats/dsz';
import { loadFixture, patternEvents } from '../support/referenceDecoding';
import { headerNumbers, readExtents, statedExtents } from '../support/tajimaHeader';

const read = dszFormat.read!;
const star = loadFixture('Star.DSZ').bytes;

/** Star.DSZ with each record's control byte (its last) changed by `change`, the header kept. */
function withControls(change: (control: number) => number): Uint8Array {
	const bytes = star.slice();
	for (let offset = 512; offset + 3 <= bytes.length; offset += 3)
		bytes[offset + 2] = change(bytes[offset + 2]);
	return bytes;
}

describe('DSZ reader', () => {
	const fields = headerNumbers(star);

	it('reads Star.DSZ as its own header states it, ending at the end code 0x90', () => {
		const pattern = read(star);
		expect(readExtents(pattern)).toEqual(statedExtents(fields));
		expect(fields.ST).toBe((star.length - 512 - 1) / 3);
		expect(pattern.length).toBe(fields.ST);
		expect(star[star.length - 2]).toBe(0x90);
	});

	it('finds the very needle path of Star.DSB, whose records order their bytes the other way', () => {
		const dsb = patternEvents(dsbFormat.read!(loadFixture('Star.DSB').bytes));
		expect(patternEvents(read(star))).toEqual(dsb);
	});

	it('takes 0x20 as down and 0x40 as left: read the other way the star leaves its extents: refused', () => {
		const swapped = withControls((control) =>
			(control & 0x1f) > 1
				? control
				: (control & ~0x60) | ((control & 0x40) >> 1) | ((control & 0x20) << 1),
		);
		// The reader refuses it: its records reach far past the extents the header states.
		expect(() => read(swapped)).toThrow(/its header declares extents of \+X 299/);
	});

	it('reads needle changes up to 0x9A, as a real DSZ changes needles with 0x93 (Cake 3.dsz)', () => {
		// Star.DSZ changes to its second colour with 0x87, in its one record of that kind.
		const at = star.indexOf(0x87, 512);
		expect([(at - 512) % 3, star.indexOf(0x87, at + 1)]).toEqual([2, -1]);
		const ninth = star.slice();
		ninth[at] = 0x93;
		expect(patternEvents(read(ninth))).toEqual(patternEvents(read(star)));
		ninth[at] = 0x9c;
		expect(() => read(ninth)).toThrow(/has the control byte 0x9c, which ZSK's records do not use/);
	});

	it('refuses a control byte ZSK does not use, and claims only a Tajima header with ZSK records', () => {
		const damaged = star.slice();
		damaged[512 + 3 * 40 + 2] = 0x85 | 0x40;
		expect(() => read(damaged)).toThrow(UnreadableSourceError);
		expect(dszFormat.detect!(damaged)).toBe(false);
		expect(dszFormat.detect!(star)).toBe(true);
		expect(dszFormat.detect!(loadFixture('Star.DSB').bytes)).toBe(false);
		expect(dszFormat.detect!(loadFixture('Star.DST').bytes)).toBe(false);
		expect(dstFormat.detect!(star)).toBe(false);
		expect(dsbFormat.detect!(star)).toBe(false);
	});
});
