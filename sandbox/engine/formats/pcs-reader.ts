/**
 * Reads Pfaff Creative PCS, strictly: it has no magic, so a file is PCS only where all of it fits.
 * Layout (little-endian): a version byte ('2'), a hoop code (2: the 80 x 80 mm hoop, 3: the 120 x 115
 * mm one), a colour count (16-bit, at most 16) and 4 bytes per colour (red, green, blue, 0), a 16-bit
 * count of the stitch and jump records, then 9-byte records to the end of the file: x and y as signed
 * 32-bit fixed-point numbers (8 fraction bits) in 1/6 mm from the hoop's lower-left corner, y up, and a
 * control byte: 0 stitch, 4 jump, 1 or 3 colour change, whose x holds the new colour's place in the
 * list (in its fraction byte) and whose y is zero.
 *
 * Positions are read relative to the hoop's centre, where machines and other formats put the origin:
 * Star.PCS, read so, lies where Star.DST does within 0.1 mm.
 */
import { Command, Pattern, threadOf, type Thread } from '../pattern';
import { ByteCursor } from './binary-io';

const { Stitch, Jump, ColorChange, End } = Command;

export const pcsVersion = 0x32;
const maxColours = 16;
const recordBytes = 9;
const stitchControl = 0;
const jumpControl = 4;
/** One file unit (1/6 mm) in the pattern's 0.1 mm, divided by the 256 of the fixed-point fraction. */
const unitsPerFixedPoint = 10 / 6 / 256;

/** A hoop a PCS file can name: its size in 0.1 mm, whose centre is the design's origin. */
export interface PfaffHoop {
	code: number;
	width: number;
	height: number;
}

export const pcsHoops: readonly PfaffHoop[] = [
	{ code: 2, width: 800, height: 800 },
	{ code: 3, width: 1200, height: 1150 },
];

/** How far (0.1 mm) a stitch may lie outside its hoop before the file is taken for something else. */
const hoopMargin = 100;

interface PcsHeader {
	hoop: PfaffHoop;
	palette: number[];
	recordCount: number;
	recordsOffset: number;
}

function readHeader(cursor: ByteCursor, hoops: readonly PfaffHoop[]): PcsHeader {
	const version = cursor.u8();
	if (version !== pcsVersion) cursor.fail(`its version byte is 0x${version.toString(16)}, not "2"`);
	const hoopCode = cursor.u8();
	const hoop = hoops.find((candidate) => candidate.code === hoopCode);
	if (!hoop) cursor.fail(`its hoop code ${hoopCode} names no hoop of the format`);
	const colourCount = cursor.u16le();
	if (colourCount === 0 || colourCount > maxColours)
		cursor.fail(`it declares ${colourCount} colours (1 to ${maxColours} fit)`);
	const palette: number[] = [];
	for (let i = 0; i < colourCount; i++) {
		palette.push(cursor.u24be());
		if (cursor.u8() !== 0) cursor.fail(`colour ${i + 1} does not end with a zero byte`);
	}
	const recordCount = cursor.u16le();
	const recordsOffset = cursor.position;
	if ((cursor.length - recordsOffset) % recordBytes !== 0)
		cursor.fail('its records do not fill the file in whole 9-byte records');
	return { hoop, palette, recordCount, recordsOffset };
}

function fixedPoint(bytes: Uint8Array, at: number): number {
	return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}

export function looksLikePcs(bytes: Uint8Array): boolean {
	return looksLikePfaffCreative(bytes, pcsHoops);
}

/** The header fits and the records fill the file: the rest is for `read` to check. */
export function looksLikePfaffCreative(bytes: Uint8Array, hoops: readonly PfaffHoop[]): boolean {
	try {
		readHeader(new ByteCursor(bytes, 'PCS'), hoops);
		return true;
	} catch {
		return false;
	}
}

export function readPcs(bytes: Uint8Array): Pattern {
	return readPfaffCreative(bytes, pcsHoops, 'PCS');
}

/** The hoop a Pfaff Creative file names, for tests and conversions that place the design. */
export function pfaffHoopOf(
	bytes: Uint8Array,
	hoops: readonly PfaffHoop[],
	label: string,
): PfaffHoop {
	return readHeader(new ByteCursor(bytes, label), hoops).hoop;
}

export function readPfaffCreative(
	bytes: Uint8Array,
	hoops: readonly PfaffHoop[],
	label: string,
): Pattern {
	const cursor = new ByteCursor(bytes, label);
	const { hoop, palette, recordCount, recordsOffset } = readHeader(cursor, hoops);
	const records = (bytes.length - recordsOffset) / recordBytes;
	const centreX = hoop.width / 2;
	const centreY = hoop.height / 2;
	const limitX = centreX + hoopMargin;
	const limitY = centreY + hoopMargin;
	const pattern = new Pattern(records + 2);
	const threads: Thread[] = [];
	let moves = 0;
	let x = 0;
	let y = 0;
	for (let at = recordsOffset; at < bytes.length; at += recordBytes) {
		const control = bytes[at + 8];
		const rawX = fixedPoint(bytes, at);
		const rawY = fixedPoint(bytes, at + 4);
		if (control === 1 || control === 3) {
			const place = bytes[at];
			if (rawX !== place || rawY !== 0 || place >= palette.length)
				cursor.fail(`the colour change at byte ${at} names no colour of its list`);
			const thread = threadOf({ color: palette[place] });
			if (moves === 0 && threads.length === 0) {
				// The first colour is chosen before sewing starts: that is not a change.
				threads.push(thread);
				continue;
			}
			// Sewing that began without a colour record began with the list's first colour.
			if (threads.length === 0) threads.push(threadOf({ color: palette[0] }));
			pattern.add(x, y, ColorChange);
			threads.push(thread);
			continue;
		}
		if (control !== stitchControl && control !== jumpControl)
			cursor.fail(
				`the record at byte ${at} has the unknown control byte 0x${control.toString(16)}`,
			);
		x = rawX * unitsPerFixedPoint - centreX;
		y = centreY - rawY * unitsPerFixedPoint;
		if (x > limitX || x < -limitX || y > limitY || y < -limitY)
			cursor.fail(
				`the record at byte ${at} lies outside the ${hoop.width / 10} x ${hoop.height / 10} mm hoop`,
			);
		pattern.add(x, y, control === stitchControl ? Stitch : Jump);
		moves++;
	}
	if (moves !== recordCount)
		cursor.fail(`its header counts ${recordCount} stitches and jumps, but it holds ${moves}`);
	pattern.add(x, y, End);
	// A file without a colour record sews with the first colour of its list.
	pattern.threads = threads.length > 0 ? threads : [threadOf({ color: palette[0] })];
	return pattern;
}
