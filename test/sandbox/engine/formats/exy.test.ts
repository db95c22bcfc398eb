import { exyFormat } from '../../../../sandbox/engine/formats/exy';
import { Command, Pattern } from '../../../../sandbox/engine/pattern';
import { detectFormat, readPattern, writePattern } from '../../../../sandbox/engine/registry';
import { builtStars, exyFile } from '../support/builtFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

const read = exyFormat.read!;

describe('EXY reader', () => {
	const dst = loadFixture('Star.DST').bytes;

	it("reads DST's records behind the EXY header, where the needle goes as in the DST", () => {
		const exy = exyFile(dst);
		expect(detectFormat(exy)).toBe('exy');
		expect(patternEvents(read(exy))).toEqual(patternEvents(readPattern(dst, 'dst')));
	});

	it('refuses extents in the header that the stitches do not span', () => {
		expect(() => read(exyFile(dst, [-295, -312, 306, 311]))).toThrow(
			/extents of 601 x 623, but its stitches span 591 x 623/,
		);
	});

	it('refuses records after the END record, records without Tajima bits, and a file cut inside a record', () => {
		const exy = exyFile(dst);
		expect(() => read(Buffer.concat([exy, Buffer.from([0, 0, 0x03])]))).toThrow(
			/END record is not the last record/,
		);
		const unmarked = exyFile(dst);
		unmarked[256 + 3 * 50 + 2] = 0x00;
		expect(() => read(unmarked)).toThrow(/EXY file is damaged: its records are not Tajima records/);
		expect(() => read(exy.subarray(0, exy.length - 1))).toThrow(/whole 3-byte records/);
	});

	it('is never taken for DST, nor a DST for EXY', () => {
		expect(exyFormat.detect!(dst)).toBe(false);
		const pattern = new Pattern();
		pattern.add(10, 10, Command.Stitch);
		expect(detectFormat(writePattern(pattern, 'dst').bytes)).toBe('dst');
	});
});

it("reads Star.DST's design written as EXY back with every one of Star.DST's needle points, in order", () => {
	const { bytes } = builtStars().find((file) => file.name === 'Star.exy')!;
	const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
	expect(pointsMatched(expected, needlePath(patternEvents(read(bytes))), 1)).toBe(expected.length);
	expect(detectFormat(bytes)).toBe('exy');
});
