/**
 * PCS beyond the shared reader table: where its origin is (the hoop's centre, which puts Star.PCS where
 * Star.DST is), files built from the documented layout, and the strictness a format without a magic needs.
 */
import { patternBounds } from '../../sandbox/engine/normalise';
import { pcsHoops, pfaffHoopOf, readPcs } from '../../sandbox/engine/formats/pcs-reader';
import { Command } from '../../sandbox/engine/pattern';
import { needlePath, pointsMatched } from './support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from './support/referenceDecoding';

interface PcsRecord {
	/** Position in 1/6 mm from the hoop's lower-left corner, y up. */
	x: number;
	y: number;
	control: number;
}

const fixed = (value: number) => {
	const raw = Math.round(value * 256);
	return [raw & 0xff, (raw >> 8) & 0xff, (raw >> 16) & 0xff, (raw >> 24) & 0xff];
};

/** A PCS file: version '2', the hoop code, the colours, the count of stitches and jumps, the records. */
function pcsFile(
	hoopCode: number,
	colours: number[],
	records: PcsRecord[],
	count?: number,
): Uint8Array {
	const moves = records.filter((record) => record.control === 0 || record.control === 4).length;
	const total = count ?? moves;
	return new Uint8Array([
		0x32,
		hoopCode,
		colours.length,
		0,
		...colours.flatMap((colour) => [colour >> 16, (colour >> 8) & 0xff, colour & 0xff, 0]),
		total & 0xff,
		total >> 8,
		...records.flatMap((record) =>
			record.control & 1
				? [record.x, 0, 0, 0, 0, 0, 0, 0, record.control]
				: [...fixed(record.x), ...fixed(record.y), record.control],
		),
	]);
}

const entriesOf = (bytes: Uint8Array) => {
	const pattern = readPcs(bytes);
	return Array.from({ length: pattern.length }, (_, i) => [
		pattern.xs[i],
		pattern.ys[i],
		pattern.commands[i],
	]);
};

describe('PCS reader', () => {
	const star = loadFixture('Star.PCS');
	const pattern = readPcs(star.bytes);

	it("names the large hoop, 120 x 115 mm, whose centre is the design's origin", () => {
		expect(star.bytes[1]).toBe(3);
		expect(pfaffHoopOf(star.bytes, pcsHoops, 'PCS')).toEqual({
			code: 3,
			width: 1200,
			height: 1150,
		});
		const bounds = patternBounds(pattern);
		// Centred on the hoop's centre within 0.1 mm, as digitising software places a design.
		expect(Math.abs(bounds.minX + bounds.maxX)).toBeLessThanOrEqual(1);
		expect(Math.abs(bounds.minY + bounds.maxY)).toBeLessThanOrEqual(1);
	});

	it('puts the needle where Star.DST does, in order, within 0.1 mm; pyembroidery puts it a hoop corner away', () => {
		const expected = needlePath(referenceEvents(loadFixture('Star.DST').commands));
		const actual = needlePath(patternEvents(pattern));
		expect(actual.length).toBe(expected.length);
		expect(pointsMatched(expected, actual, 1)).toBe(expected.length);
		const pyembroidery = needlePath(referenceEvents(star.commands));
		expect(pointsMatched(expected, pyembroidery, 1)).toBeLessThan(10);
	});

	it('reads stitches, jumps and colour choices of a small-hoop file built from the documented layout', () => {
		// The 80 x 80 mm hoop's centre is (240, 240) in 1/6 mm.
		const bytes = pcsFile(
			2,
			[0x112233, 0x445566, 0x778899],
			[
				{ x: 2, y: 0, control: 3 },
				{ x: 240, y: 240, control: 0 },
				{ x: 246, y: 234.6, control: 0 },
				{ x: 1, y: 0, control: 3 },
				{ x: 180, y: 300, control: 4 },
				{ x: 180.6, y: 300, control: 0 },
			],
		);
		expect(entriesOf(bytes)).toEqual([
			[0, 0, Command.Stitch],
			[10, 9, Command.Stitch],
			[10, 9, Command.ColorChange],
			[-100, -100, Command.Jump],
			[-99, -100, Command.Stitch],
			[-99, -100, Command.End],
		]);
		expect(readPcs(bytes).threads).toEqual([{ color: 0x778899 }, { color: 0x445566 }]);
	});

	it.each([
		['a version other than "2"', (bytes: Uint8Array) => (bytes[0] = 0x31), /version byte is 0x31/],
		['a hoop code PCS does not have', (bytes: Uint8Array) => (bytes[1] = 1), /hoop code 1/],
		[
			'a count that is not its records',
			(bytes: Uint8Array) => bytes[3 + 4 + 1]++,
			/counts 3 stitches/,
		],
		[
			'an unknown control byte',
			(bytes: Uint8Array) => (bytes[bytes.length - 1] = 2),
			/control byte 0x2/,
		],
		['a colour change naming no colour', (bytes: Uint8Array) => (bytes[10] = 1), /names no colour/],
	])('refuses %s', (_, damage, message) => {
		const bytes = pcsFile(
			3,
			[0xff0000],
			[
				{ x: 0, y: 0, control: 3 },
				{ x: 360, y: 345, control: 0 },
				{ x: 361, y: 345, control: 0 },
			],
		);
		expect(() => readPcs(bytes)).not.toThrow();
		damage(bytes);
		expect(() => readPcs(bytes)).toThrow(message);
	});

	it('refuses a stitch far outside its hoop and records that do not fill the file', () => {
		const outside = pcsFile(2, [0xff0000], [{ x: 2000, y: 240, control: 0 }]);
		expect(() => readPcs(outside)).toThrow(/outside the 80 x 80 mm hoop/);
		const inside = pcsFile(2, [0xff0000], [{ x: 240, y: 240, control: 0 }]);
		expect(() => readPcs(inside.subarray(0, inside.length - 1))).toThrow(/whole 9-byte records/);
	});
});
