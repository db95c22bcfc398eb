import { phbFormat } from '../../sandbox/engine/formats/phb';
import { phcFormat } from '../../sandbox/engine/formats/phc';
import { detectFormat } from '../../sandbox/engine/registry';
import { fixture } from '../support/embroideryFiles';
import { loadFixture, stitchesMatchedInOrder } from './support/referenceDecoding';

const read = phcFormat.read!;

describe('PHC reader', () => {
	it("sews Star.DST's needle path from Star.phc, which pyembroidery cannot read", () => {
		const { matched, total } = stitchesMatchedInOrder(
			read(fixture('Star.phc')),
			loadFixture('Star.DST'),
		);
		// PEC's records dropped 13 of DST's tie-in stitches; every other one lies within 0.1 mm, in order.
		expect(total).toBe(2550);
		expect(matched).toBe(2537);
	});

	it("reads PHB's layout only as PHB, and PHC's only as PHC", () => {
		expect(phbFormat.detect!(fixture('Star.phc'))).toBe(false);
		expect(phcFormat.detect!(fixture('Star.phb'))).toBe(false);
		const renamed = fixture('Star.phc');
		renamed.write('#PHB', 0, 'latin1');
		expect(detectFormat(renamed)).toBeNull();
	});

	it('refuses a file whose header sections do not lead to the stitches', () => {
		const shifted = fixture('Star.phc');
		shifted.writeUInt32LE(shifted.readUInt32LE(0x30) + 1, 0x30);
		expect(phcFormat.detect!(shifted)).toBe(false);
		expect(() => read(shifted)).toThrow(/PHC file is damaged: a section of its header/);
	});
});
