import { identifyFormat } from '../../../../sandbox/engine';
import { dsbFormat } from '../../../../sandbox/engine/formats/dsb';
import { dstFormat } from '../../../../sandbox/engine/formats/dst';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { loadFixture } from '../support/referenceDecoding';
import { headerNumbers, readExtents, statedExtents, stitchPoints } from '../support/tajimaHeader';

const read = dsbFormat.read!;
const star = loadFixture('Star.DSB').bytes;

/** Star.DSB with each record's control byte changed by `change`, the header kept. */
function withControls(change: (control: number) => number): Uint8Array {
	const bytes = star.slice();
	for (let offset = 512; offset + 3 <= bytes.length; offset += 3)
		bytes[offset] = change(bytes[offset]);
	return bytes;
}

describe('DSB reader', () => {
	const fields = headerNumbers(star);

	it("reads Star.DSB as its own header states it: the header's extents and record count", () => {
		const pattern = read(star);
		expect(readExtents(pattern)).toEqual(statedExtents(fields));
		// ST counts the records, the end record included: every record before it is one entry.
		const records = (star.length - 512 - 1) / 3;
		expect(fields.ST).toBe(records);
		expect(pattern.length).toBe(records);
	});

	it('takes 0x40 as down and 0x20 as left: read the other way the star leaves its extents: refused', () => {
		const swapped = withControls(
			(control) => (control & ~0x60) | ((control & 0x40) >> 1) | ((control & 0x20) << 1),
		);
		// The reader refuses it: its records reach far past the extents the header states.
		expect(() => read(swapped)).toThrow(/its header declares extents of \+X 299/);
	});

	it('refuses a Tajima label before another file that then ends without its end code: no extents to check', () => {
		// Star.DSB's first 32 bytes (its label and ST: field) before Star.10O: the 10O records read as DSB
		// records and run out without an end code, as a cut-short file would; a real one keeps its header.
		const tenO = loadFixture('Star.10O').bytes;
		const spliced = Uint8Array.from([...star.subarray(0, 32), ...tenO]);
		expect(() => read(spliced)).toThrow(
			/DSB file is damaged: its records end without the end code, and its header does not declare the extents/,
		);
		// Star.DSB cut short, its header whole, is still read up to the cut, with a warning.
		expect(read(star.subarray(0, 3000)).warnings[0]).toMatch(/^The file ends early/);
	});

	it('refuses far more records up to the end code than the header declares: another file behind it', () => {
		// Star.DSZ's first 64 bytes (ST: 2449, and extents cut short) before Star.u01: its records read as DSB.
		const dsz = loadFixture('Star.DSZ').bytes;
		const u01 = loadFixture('Star.u01').bytes;
		const spliced = Uint8Array.from([...dsz.subarray(0, 64), ...u01]);
		expect(() => read(spliced)).toThrow(
			/DSB file is damaged: its header declares 2449 records, but 2486 come up to its end code/,
		);
		// Real files hold up to 8 more than they declare: 20 more than Star.DSB's header says still read.
		const more = star.slice();
		more.set(Buffer.from('ST:   2429\r', 'latin1'), 20);
		expect(read(more).length).toBe(read(star).length);
	});

	it("is a digitising of Star.DST's star with other satin edges: half its stitches land on Star.DST's", () => {
		const dsb = stitchPoints(read(star));
		const dst = new Set(stitchPoints(dstFormat.read!(loadFixture('Star.DST').bytes)));
		const shared = dsb.filter((point) => dst.has(point)).length;
		// Every other satin stitch is the same; the others lie 0.5 mm across (pyembroidery reads it alike).
		expect(shared / dsb.length).toBeGreaterThan(0.45);
		expect(shared / dsb.length).toBeLessThan(0.6);
		expect(countCommands(read(star), Command.ColorChange)).toBe(fields.CO);
	});

	it('claims files with a Tajima header and Barudan records only', () => {
		expect(dsbFormat.detect!(star)).toBe(true);
		expect(dsbFormat.detect!(loadFixture('Star.DST').bytes)).toBe(false);
		expect(dsbFormat.detect!(loadFixture('Star.DSZ').bytes)).toBe(false);
		expect(dsbFormat.detect!(loadFixture('Star.u01').bytes)).toBe(false);
		// A control byte without Barudan's record flag is not DSB.
		expect(dsbFormat.detect!(withControls((control) => control & 0x7f))).toBe(false);
		expect(dstFormat.detect!(star)).toBe(false);
	});

	it("does not claim DSZ's records shifted under a cut header: a DSZ is never read as DSB", () => {
		const dsz = loadFixture('Star.DSZ').bytes;
		// bench:fuzz's misread (seed 1): Star.DSZ's first 198 bytes, then its bytes from 7,370 on, whose
		// records land two bytes off, so each ZSK control byte opens a record as Barudan's does.
		for (const from of [7370, 650]) {
			const spliced = new Uint8Array([...dsz.subarray(0, 198), ...dsz.subarray(from)]);
			expect(spliced[512] & 0x9f).toBe(0x80);
			expect([from, identifyFormat(spliced, 'spliced.dsz').format]).toEqual([from, null]);
			expect([from, identifyFormat(spliced, 'spliced.dsb').format]).toEqual([from, null]);
		}
		// A changed byte or two in the header's padding is no run of records: still DSB and DSZ.
		for (const [file, format] of [
			[star, 'dsb'],
			[dsz, 'dsz'],
		] as const) {
			const padded = file.slice();
			padded.set([0xff, 0x93], 300);
			expect(identifyFormat(padded, `changed.${format}`).format).toBe(format);
		}
	});
});
