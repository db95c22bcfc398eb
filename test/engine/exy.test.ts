import { exyFormat } from '../../sandbox/engine/formats/exy';
import { patternBounds } from '../../sandbox/engine/normalise';
import { Command, Pattern } from '../../sandbox/engine/pattern';
import { detectFormat, readPattern, writePattern } from '../../sandbox/engine/registry';
import { loadFixture, patternEvents } from './support/referenceDecoding';

const read = exyFormat.read!;

/**
 * An EXY file as the format lays it out (the layout of two real files, which stay out of the repository):
 * 128 filler bytes, the extents at 0x80, zeros to 256, then Tajima's records, here Star.DST's.
 */
function exyFrom(dst: Uint8Array, extents?: [number, number, number, number]): Buffer {
	const design = readPattern(dst, 'dst');
	const bounds = patternBounds(design);
	const header = Buffer.alloc(256);
	header.fill(0x30, 0, 128);
	const [minX, minY, maxX, maxY] = extents ?? [
		bounds.minX,
		-bounds.maxY,
		bounds.maxX,
		-bounds.minY,
	];
	[minX, minY, maxX, maxY].forEach((value, i) => header.writeInt16LE(value, 0x80 + 2 * i));
	return Buffer.concat([header, Buffer.from(dst.subarray(512))]);
}

describe('EXY reader', () => {
	const dst = loadFixture('Star.DST').bytes;

	it("reads DST's records behind the EXY header, where the needle goes as in the DST", () => {
		const exy = exyFrom(dst);
		expect(detectFormat(exy)).toBe('exy');
		expect(patternEvents(read(exy))).toEqual(patternEvents(readPattern(dst, 'dst')));
	});

	it('refuses extents in the header that the stitches do not span', () => {
		expect(() => read(exyFrom(dst, [-295, -312, 306, 311]))).toThrow(
			/extents of 601 x 623, but its stitches span 591 x 623/,
		);
	});

	it('refuses records after the END record, records without Tajima bits, and a file cut inside a record', () => {
		const exy = exyFrom(dst);
		expect(() => read(Buffer.concat([exy, Buffer.from([0, 0, 0x03])]))).toThrow(
			/END record is not the last record/,
		);
		const unmarked = exyFrom(dst);
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
