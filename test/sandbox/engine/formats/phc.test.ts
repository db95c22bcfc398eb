import { phbFormat } from '../../../../sandbox/engine/formats/phb';
import { phcFormat } from '../../../../sandbox/engine/formats/phc';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { fixture } from '../../../support/embroideryFiles';
import { alignedTo, needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

const read = phcFormat.read!;

describe('PHC reader', () => {
	it("sews Star.DST's needle path from Star.phc, which pyembroidery cannot read", () => {
		const dst = referenceEvents(loadFixture('Star.DST').commands);
		const expected = needlePath(dst);
		// Star.phc places the design around another origin: its first stitch is Star.DST's, moved.
		const actual = needlePath(alignedTo(patternEvents(read(fixture('Star.phc'))), dst));
		expect(actual.length).toBe(expected.length);
		expect(pointsMatched(expected, actual, 1)).toBe(expected.length);
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
		expect(() => read(shifted)).toThrow(
			/PHC file is damaged: (a section of its header|an offset points outside the file)/,
		);
	});
});
