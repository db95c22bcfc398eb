/**
 * SHV beyond the shared reader table: which of pyembroidery's reading and Star.DST is right, and damaged
 * files refused.
 */
import { UnreadableSourceError } from '../../../../sandbox/engine/errors';
import { looksLikeShv, readShv, shvExtents } from '../../../../sandbox/engine/formats/shvReader';
import { countCommands, patternBounds } from '../../../../sandbox/engine/normalise';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

const star = loadFixture('Star.SHV');
const dst = loadFixture('Star.DST');
/** Where Star.SHV's stitch records start: after the last of its two 14-byte colour block records. */
const stitchesOffset = 2128;

describe('SHV reader on Star.SHV', () => {
	const pattern = readShv(star.bytes);

	it("puts the needle everywhere Star.DST does, in order, where pyembroidery's reading is 10.5 mm off", () => {
		const expected = needlePath(referenceEvents(dst.commands));
		const actual = needlePath(patternEvents(pattern));
		expect(actual.length).toBe(expected.length);
		expect(pointsMatched(expected, actual, 0)).toBe(expected.length);
		expect(countCommands(pattern, Command.ColorChange)).toBe(dst.expected.colorChanges);
		const pyembroidery = needlePath(referenceEvents(star.commands));
		expect(pointsMatched(expected, pyembroidery, 1)).toBeLessThan(expected.length / 10);
	});

	it('reads the stitches from where the colour records end: the first record is the long move 80 01', () => {
		expect(Array.from(star.bytes.subarray(stitchesOffset, stitchesOffset + 8))).toEqual([
			0x80, 0x01, 0x00, 0x01, 0x00, 0x97, 0x80, 0x02,
		]);
		expect([pattern.xs[0], pattern.ys[0], pattern.commands[0]]).toEqual([1, 151, Command.Jump]);
	});

	it("fills exactly the extents the file's header declares, so its origin is the design's", () => {
		const bounds = patternBounds(pattern);
		const extents = shvExtents(star.bytes);
		expect([bounds.minX, bounds.minY, bounds.maxX, bounds.maxY]).toEqual([
			extents.left,
			extents.top,
			extents.right,
			extents.bottom,
		]);
		expect([bounds.minX, bounds.minY, bounds.maxX, bounds.maxY]).toEqual(
			dst.expected['bounds_0.1mm'],
		);
	});

	it('refuses a file whose records do not add up to the stitch counts its header declares', () => {
		// One record more than declared; one fewer is a file cut short (test/sandbox/engine/formats/endsEarly.test.ts).
		const more = Uint8Array.from([...star.bytes, 0x01, 0x01]);
		expect(detectFormat(more)).toBe('shv');
		expect(() => readShv(more)).toThrow(/declares 2543 stitches, but it holds 2544/);
		const fewer = readShv(star.bytes.slice(0, star.bytes.length - 2));
		expect(fewer.warnings).toEqual([
			'The file ends early (with fewer stitches than its header declares): read 2,542 of 2,543 declared ' +
				'stitches. The rest of the design is missing; check the file.',
		]);
		const recounted = star.bytes.slice();
		// The first colour block's stitch count, 1459, as 1460: the blocks no longer add up to the total.
		recounted[stitchesOffset - 28 + 3]++;
		expect(() => readShv(recounted)).toThrow(/colour blocks hold 2544 stitches, its header 2543/);
	});

	it('reads a file whose writer left zeros for the licence text, only where all of it fits', () => {
		const zeroed = star.bytes.slice();
		zeroed.fill(0, 0, 86);
		expect(detectFormat(zeroed)).toBe('shv');
		expect(needlePath(patternEvents(readShv(zeroed)))).toEqual(needlePath(patternEvents(pattern)));
		const cut = zeroed.subarray(0, zeroed.length - 2);
		expect(looksLikeShv(cut)).toBe(false);
		expect(looksLikeShv(star.bytes.subarray(0, star.bytes.length - 2))).toBe(true);
		expect(looksLikeShv(new Uint8Array(1024))).toBe(false);
	});

	it('refuses half a record at the end and a control code SHV does not have', () => {
		const odd = new Uint8Array([...star.bytes, 0]);
		expect(() => readShv(odd)).toThrow(/half a record/);
		const unknown = star.bytes.slice();
		unknown[stitchesOffset + 7] = 0x07;
		expect(() => readShv(unknown)).toThrow(UnreadableSourceError);
		expect(() => readShv(unknown)).toThrow(/unknown code 0x80 0x7/);
	});
});
