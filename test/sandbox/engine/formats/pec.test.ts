import { pecFormat } from '../../../../sandbox/engine/formats/pec';
import { pesFormat } from '../../../../sandbox/engine/formats/pes';
import { countCommands } from '../../../../sandbox/engine/normalise';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { loadFixture, starAsPec } from '../support/referenceDecoding';

const read = pecFormat.read!;
const write = pecFormat.write!;

function entriesOf(pattern: Pattern): number[][] {
	return Array.from({ length: pattern.length }, (_, i) => [
		pattern.xs[i],
		pattern.ys[i],
		pattern.commands[i],
	]);
}

describe('PEC reader', () => {
	it('is recognised by its signature and label, and not confused with PES', () => {
		const pec = starAsPec();
		expect(pecFormat.detect!(pec)).toBe(true);
		expect(pecFormat.detect!(loadFixture('Star.pes').bytes)).toBe(false);
		expect(pesFormat.detect!(pec)).toBe(false);
		expect(pecFormat.detect!(pec.subarray(0, 100))).toBe(false);
	});

	it('reads a repeated colour as a stop, the way Brother machines pause', () => {
		const pec = starAsPec();
		pec[8 + 50] = pec[8 + 49];
		const pattern = read(pec);
		expect(countCommands(pattern, Command.ColorChange)).toBe(0);
		expect(countCommands(pattern, Command.Stop)).toBe(1);
		expect(pattern.threads).toHaveLength(1);
	});

	it("checks the stitch section's width and height, unless a writer left them 0 x 0", () => {
		// The stitch section starts 512 bytes into the PEC block; its width and height are 8 bytes into it.
		const size = 8 + 512 + 8;
		const unset = starAsPec();
		unset.fill(0, size, size + 4);
		// Embroidermodder's own PEC of its logo declares 0 x 0; pyembroidery reads it.
		expect(read(unset).length).toBe(read(starAsPec()).length);
		const wrong = starAsPec();
		wrong.set([100, 0, 100, 0], size);
		expect(() => read(wrong)).toThrow(/its header declares a design of 100 x 100 \(0\.1 mm\)/);
	});

	it('reads a declared size a little larger than the stitches, as some writers leave a margin, and no more', () => {
		const size = 8 + 512 + 8;
		const declaring = (width: number, height: number) => {
			const pec = starAsPec();
			pec.set([width & 0xff, width >> 8, height & 0xff, height >> 8], size);
			return pec;
		};
		const star = starAsPec();
		expect([star[size] | (star[size + 1] << 8), star[size + 2] | (star[size + 3] << 8)]).toEqual([
			591, 623,
		]);
		// A real PES 2.0 (lobster.pes of embroidery-converter-kit) declares 776 x 1752 for stitches of 774 x 1749.
		expect(read(declaring(597, 630)).length).toBe(read(star).length);
		// More than 1% (at least 0.5 mm) larger, or more than 0.2 mm smaller, is not the design read.
		expect(() => read(declaring(598, 623))).toThrow(/declares a design of 598 x 623/);
		expect(() => read(declaring(591, 620))).toThrow(/declares a design of 591 x 620/);
	});
});

describe('PEC writer', () => {
	it('round-trips Star exactly and starts with the PEC signature', () => {
		const original = read(starAsPec());
		const { bytes, warnings } = write(original);
		expect(Buffer.from(bytes.subarray(0, 11)).toString('latin1')).toBe('#PEC0001LA:');
		expect(entriesOf(read(bytes))).toEqual(entriesOf(original));
		expect(warnings).toEqual([]);
	});

	it('matches PES: the same design gives the same PEC block inside a PES file', () => {
		const original = read(starAsPec());
		const pec = write(original).bytes;
		const pes = pesFormat.write!(original).bytes;
		const pecOffset = new DataView(pes.buffer).getUint32(8, true);
		// PES v6 follows the PEC block with its colour addendum.
		const block = pes.subarray(pecOffset, pecOffset + pec.length - 8);
		expect(Buffer.from(block).equals(Buffer.from(pec.subarray(8)))).toBe(true);
	});

	it('refuses more colour blocks than the one-byte colour list holds', () => {
		const pattern = new Pattern();
		for (let block = 0; block < 300; block++) {
			pattern.add(block, 0, Command.Stitch);
			pattern.add(block, 0, Command.ColorChange);
		}
		expect(() => write(pattern)).toThrow(/at most 255 colour blocks/);
	});
});
