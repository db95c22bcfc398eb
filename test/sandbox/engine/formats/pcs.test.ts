/**
 * PCS beyond the shared reader table: where its origin is (the hoop's centre, which puts Star.PCS where
 * Star.DST is), files built from the documented layout, and the strictness a format without a magic needs.
 */
import { patternBounds } from '../../../../sandbox/engine/normalise';
import { pcdFormat, pcdVariant } from '../../../../sandbox/engine/formats/pcd';
import { pcmVariant } from '../../../../sandbox/engine/formats/pcm';
import { pcqVariant } from '../../../../sandbox/engine/formats/pcq';
import { pcsVariant } from '../../../../sandbox/engine/formats/pcs';
import {
	pfaffHoopOf,
	readPfaffCreative,
	type PfaffCreativeVariant,
} from '../../../../sandbox/engine/formats/pfaffCreativeReader';
import { Command } from '../../../../sandbox/engine/pattern';
import { detectFormat } from '../../../../sandbox/engine/registry';
import { pfaffStar } from '../support/builtFiles';
import { needlePath, pointsMatched } from '../support/needlePath';
import { loadFixture, patternEvents, referenceEvents } from '../support/referenceDecoding';

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

/**
 * A file of the family: version '2', the hoop code, the colours (RGB, or PCM's chart places), the count of
 * stitches and jumps, the records; PCM's numbers big-endian.
 */
function pfaffFile(
	hoopCode: number,
	colours: number[],
	records: PcsRecord[],
	options: { pcm?: boolean; tail?: number[] } = {},
): Uint8Array {
	const order = (bytes: number[]) => (options.pcm ? bytes.reverse() : bytes);
	const u16 = (value: number) => order([value & 0xff, value >> 8]);
	const moves = records.filter((record) => record.control === 0 || record.control === 4).length;
	return new Uint8Array([
		0x32,
		hoopCode,
		...u16(colours.length),
		...colours.flatMap((colour) =>
			options.pcm ? u16(colour) : [colour >> 16, (colour >> 8) & 0xff, colour & 0xff, 0],
		),
		...u16(moves),
		...records.flatMap((record) =>
			record.control & 1
				? [...order([record.x, 0, 0, 0]), 0, 0, 0, 0, record.control]
				: [...order(fixed(record.x)), ...order(fixed(record.y)), record.control],
		),
		...(options.tail ?? []),
	]);
}

const pcsFile = (hoopCode: number, colours: number[], records: PcsRecord[]) =>
	pfaffFile(hoopCode, colours, records);
const readPcs = (bytes: Uint8Array) => readPfaffCreative(bytes, pcsVariant);

const entriesOf = (bytes: Uint8Array, variant: PfaffCreativeVariant = pcsVariant) => {
	const pattern = readPfaffCreative(bytes, variant);
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
		expect(pfaffHoopOf(star.bytes, pcsVariant)).toEqual({
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
			/ends after 2 of the 3 stitches/,
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
		expect(() => readPcs(inside.subarray(0, inside.length - 1))).toThrow(
			/its 1 records do not fit in the file/,
		);
	});

	it('takes the zero bytes some writers add after the last record, and nothing else there', () => {
		const records = [{ x: 240, y: 240, control: 0 }];
		expect(() =>
			readPcs(pfaffFile(2, [0xff0000], records, { tail: new Array(13).fill(0) })),
		).not.toThrow();
		expect(() => readPcs(pfaffFile(2, [0xff0000], records, { tail: [0, 0, 1] }))).toThrow(
			/3 bytes follow the 1 stitches/,
		);
		expect(() =>
			readPcs(pfaffFile(2, [0xff0000], records, { tail: new Array(40).fill(0) })),
		).toThrow(/40 bytes follow/);
	});
});

describe('PCM, PCD and PCQ readers', () => {
	const square = [
		{ x: 0, y: 0, control: 3 },
		{ x: 100, y: 100, control: 4 },
		{ x: 106, y: 100, control: 0 },
		{ x: 106, y: 106, control: 0 },
	];

	it("reads PCM's big-endian records and its colours as places in the 16-colour chart", () => {
		const bytes = pfaffFile(
			3,
			[8, 15],
			[...square, { x: 1, y: 0, control: 3 }, { x: 100, y: 100, control: 0 }],
			{
				pcm: true,
			},
		);
		expect(entriesOf(bytes, pcmVariant)).toEqual([
			[-433, 408, Command.Jump],
			[-423, 408, Command.Stitch],
			[-423, 398, Command.Stitch],
			[-423, 398, Command.ColorChange],
			[-433, 408, Command.Stitch],
			[-433, 408, Command.End],
		]);
		expect(readPfaffCreative(bytes, pcmVariant).threads).toEqual([
			{ color: 0xff0000 },
			{ color: 0xffffff },
		]);
		expect(() => readPfaffCreative(pfaffFile(3, [16], square, { pcm: true }), pcmVariant)).toThrow(
			/place 16 of a 16-colour chart/,
		);
	});

	it.each([
		['PCD', pcdVariant, 0],
		['PCQ', pcqVariant, 1],
	])(
		'centres %s, whose hoop has no documented size, on its own extents',
		(_, variant, hoopCode) => {
			const bytes = pfaffFile(hoopCode, [0x123456], square);
			expect(pfaffHoopOf(bytes, variant)).toBeNull();
			expect(entriesOf(bytes, variant)).toEqual([
				[-5, 5, Command.Jump],
				[5, 5, Command.Stitch],
				[5, -5, Command.Stitch],
				[5, -5, Command.End],
			]);
			expect(() => readPfaffCreative(pfaffFile(3, [], square.slice(1)), variant)).toThrow(
				/hoop code 3/,
			);
		},
	);

	it.each([
		['pcd', pcdVariant],
		['pcq', pcqVariant],
		['pcm', pcmVariant],
	] as const)(
		"reads Star.PCS built as %s, by content alone, as PCS's reader reads Star.PCS",
		(format, variant) => {
			const bytes = pfaffStar(format);
			expect(detectFormat(bytes)).toBe(format);
			const pcs = readPfaffCreative(loadFixture('Star.PCS').bytes, pcsVariant);
			const pattern = readPfaffCreative(bytes, variant);
			expect(Array.from(pattern.commands.subarray(0, pattern.length))).toEqual(
				Array.from(pcs.commands.subarray(0, pcs.length)),
			);
			// PCD and PCQ centre the design on its extents, PCS and PCM on the hoop: the same points, moved as one.
			const dx = pattern.xs[0] - pcs.xs[0];
			const dy = pattern.ys[0] - pcs.ys[0];
			expect(Math.max(Math.abs(dx), Math.abs(dy))).toBe(format === 'pcm' ? 0 : 1);
			for (let i = 0; i < pattern.length; i++) {
				expect(Math.abs(pattern.xs[i] - pcs.xs[i] - dx)).toBeLessThanOrEqual(1);
				expect(Math.abs(pattern.ys[i] - pcs.ys[i] - dy)).toBeLessThanOrEqual(1);
			}
			expect(pattern.threads).toEqual(pcs.threads);
		},
	);

	it("never takes another member's file: each knows only its own hoop codes and byte order", () => {
		const pcs = pfaffFile(3, [0xff0000], square);
		const pcd = pfaffFile(0, [0xff0000], square);
		expect(pcdFormat.detect!(pcs)).toBe(false);
		expect(() => readPcs(pcd)).toThrow(/hoop code 0/);
		expect(() => readPfaffCreative(pcs, pcmVariant)).toThrow();
	});
});
