/**
 * Reads the Pfaff Creative family (PCS, PCD, PCQ, PCM), strictly: none has a magic, so a file is taken
 * only where all of it fits. Layout: a version byte ('2'), a hoop code, a colour list (a 16-bit count, at
 * most 16, then per colour: PCS, PCD and PCQ 4 bytes, red, green, blue and 0; PCM a 16-bit place in the
 * 16-colour chart), a 16-bit count of the stitch and jump records, then 9-byte records: x and y as signed
 * 32-bit fixed-point numbers (8 fraction bits) in 1/6 mm from the hoop's lower-left corner, y up, and a
 * control byte: 0 stitch, 4 jump, 1 or 3 colour change, whose x holds the new colour's place in the list
 * (in its fraction byte) and whose y is zero. PCM is big-endian, the others little-endian. After the
 * counted records some writers add a few zero records and bytes.
 *
 * Positions are read relative to the hoop's centre, where machines and other formats put the origin:
 * Star.PCS, read so, lies where Star.DST does within 0.1 mm. Where a format's hoop codes name hoops of
 * unknown size (PCD's and PCQ's), the design is centred on its own extents instead.
 */
import { Command, Pattern, threadOf, type Thread } from '../pattern';
import type { FormatModule } from './format';
import { pcmThreadChart } from '../threads/pcmThreads';
import { ByteCursor } from './binaryIo';

const { Stitch, Jump, ColorChange, End } = Command;

export const pfaffVersion = 0x32;
const maxColours = 16;
const recordBytes = 9;
const stitchControl = 0;
const jumpControl = 4;
/** One file unit (1/6 mm) in the pattern's 0.1 mm, divided by the 256 of the fixed-point fraction. */
const unitsPerFixedPoint = 10 / 6 / 256;
/** Zero bytes a writer may leave after the last counted record (13 in the PCS, PCD and PCQ samples, 33 in PCM's). */
const longestZeroTail = 4 * recordBytes;
/** How far (0.1 mm) a stitch may lie outside its hoop before the file is taken for something else. */
const hoopMargin = 100;
/** Where a hoop's size is unknown: positions no embroidery field reaches (0.1 mm from the corner). */
const largestField = 4000;

/** A hoop a file can name: its size in 0.1 mm, whose centre is the design's origin. */
export interface PfaffHoop {
	code: number;
	width: number;
	height: number;
}

/** One member of the family: its name, byte order, colour list, and the hoop codes its files carry. */
export interface PfaffCreativeVariant {
	label: string;
	bigEndian: boolean;
	/** RGB colours (PCS, PCD, PCQ) or places in the 16-colour chart (PCM). */
	colours: 'rgb' | 'chart';
	/** Hoop codes with known sizes. */
	hoops: readonly PfaffHoop[];
	/** Hoop codes whose hoop size is unknown: the design is centred on its own extents. */
	unsizedHoopCodes: readonly number[];
}

interface PfaffHeader {
	hoop: PfaffHoop | null;
	palette: number[];
	recordCount: number;
	recordsOffset: number;
}

function readHeader(cursor: ByteCursor, variant: PfaffCreativeVariant): PfaffHeader {
	const u16 = () => (variant.bigEndian ? cursor.u16be() : cursor.u16le());
	const version = cursor.u8();
	if (version !== pfaffVersion)
		cursor.fail(`its version byte is 0x${version.toString(16)}, not "2"`);
	const hoopCode = cursor.u8();
	const hoop = variant.hoops.find((candidate) => candidate.code === hoopCode) ?? null;
	if (!hoop && !variant.unsizedHoopCodes.includes(hoopCode))
		cursor.fail(`its hoop code ${hoopCode} names no hoop of the format`);
	const colourCount = u16();
	if (colourCount > maxColours)
		cursor.fail(`it declares ${colourCount} colours (at most ${maxColours} fit)`);
	const palette: number[] = [];
	for (let i = 0; i < colourCount; i++) {
		if (variant.colours === 'chart') {
			const place = u16();
			const chartThread = pcmThreadChart.find(place);
			if (!chartThread) cursor.fail(`colour ${i + 1} is place ${place} of a 16-colour chart`);
			palette.push(chartThread.color);
		} else {
			palette.push(cursor.u24be());
			if (cursor.u8() !== 0) cursor.fail(`colour ${i + 1} does not end with a zero byte`);
		}
	}
	const recordCount = u16();
	const recordsOffset = cursor.position;
	if (recordCount * recordBytes > cursor.remaining)
		cursor.fail(`its ${recordCount} records do not fit in the file`);
	return { hoop, palette, recordCount, recordsOffset };
}

/** The header fits and its records fit in the file: the rest is for `read` to check. */
export function looksLikePfaffCreative(bytes: Uint8Array, variant: PfaffCreativeVariant): boolean {
	try {
		readHeader(new ByteCursor(bytes, variant.label), variant);
		return true;
	} catch {
		return false;
	}
}

/** The hoop a file names, or null where the format's hoop of that code has no known size. */
export function pfaffHoopOf(bytes: Uint8Array, variant: PfaffCreativeVariant): PfaffHoop | null {
	return readHeader(new ByteCursor(bytes, variant.label), variant).hoop;
}

export function readPfaffCreative(bytes: Uint8Array, variant: PfaffCreativeVariant): Pattern {
	const cursor = new ByteCursor(bytes, variant.label);
	const { hoop, palette, recordCount, recordsOffset } = readHeader(cursor, variant);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const littleEndian = !variant.bigEndian;
	// A colour record's place in the list sits in the fraction byte of its x.
	const placeByte = littleEndian ? 0 : 3;

	// First pass: where the counted records end, and the extents an unsized hoop's origin needs.
	let end = recordsOffset;
	let moves = 0;
	let minX = Infinity;
	let maxX = -Infinity;
	let minY = Infinity;
	let maxY = -Infinity;
	while (moves < recordCount) {
		if (end + recordBytes > bytes.length)
			cursor.fail(`it ends after ${moves} of the ${recordCount} stitches its header counts`);
		const control = bytes[end + 8];
		if (control !== stitchControl && control !== jumpControl && control !== 1 && control !== 3)
			cursor.fail(
				`the record at byte ${end} has the unknown control byte 0x${control.toString(16)}`,
			);
		if (control === stitchControl || control === jumpControl) {
			const x = view.getInt32(end, littleEndian);
			const y = view.getInt32(end + 4, littleEndian);
			if (x < minX) minX = x;
			if (x > maxX) maxX = x;
			if (y < minY) minY = y;
			if (y > maxY) maxY = y;
			moves++;
		}
		end += recordBytes;
	}
	const tail = bytes.length - end;
	if (tail > longestZeroTail || bytes.subarray(end).some((byte) => byte !== 0))
		cursor.fail(`${tail} bytes follow the ${recordCount} stitches its header counts`);

	const centreX = hoop ? hoop.width / 2 : moves ? ((minX + maxX) / 2) * unitsPerFixedPoint : 0;
	const centreY = hoop ? hoop.height / 2 : moves ? ((minY + maxY) / 2) * unitsPerFixedPoint : 0;
	const fieldWidth = hoop ? hoop.width + 2 * hoopMargin : largestField;
	const fieldHeight = hoop ? hoop.height + 2 * hoopMargin : largestField;
	const pattern = new Pattern((end - recordsOffset) / recordBytes + 2);
	const threads: Thread[] = [];
	let x = 0;
	let y = 0;
	let sewn = false;
	for (let at = recordsOffset; at < end; at += recordBytes) {
		const control = bytes[at + 8];
		const rawX = view.getInt32(at, littleEndian);
		const rawY = view.getInt32(at + 4, littleEndian);
		if (control === 1 || control === 3) {
			const place = bytes[at + placeByte];
			if (rawX !== place || rawY !== 0 || place >= palette.length)
				cursor.fail(`the colour change at byte ${at} names no colour of its list`);
			const thread = threadOf({ color: palette[place] });
			if (!sewn && threads.length === 0) {
				// The first colour is chosen before sewing starts: that is not a change.
				threads.push(thread);
				continue;
			}
			// Sewing that began without a colour record began with the list's first colour.
			if (threads.length === 0) threads.push(threadOf({ color: palette[0] ?? 0 }));
			pattern.add(x, y, ColorChange);
			threads.push(thread);
			continue;
		}
		const fromCornerX = rawX * unitsPerFixedPoint;
		const fromCornerY = rawY * unitsPerFixedPoint;
		if (
			fromCornerX < -hoopMargin ||
			fromCornerX > fieldWidth - hoopMargin ||
			fromCornerY < -hoopMargin ||
			fromCornerY > fieldHeight - hoopMargin
		) {
			const distance = Math.round(Math.max(Math.abs(fromCornerX), Math.abs(fromCornerY)) / 10);
			cursor.fail(
				hoop
					? `the record at byte ${at} lies outside the ${hoop.width / 10} x ${hoop.height / 10} mm hoop`
					: `the record at byte ${at} lies ${distance} mm from the hoop's corner`,
			);
		}
		x = fromCornerX - centreX;
		y = centreY - fromCornerY;
		pattern.add(x, y, control === stitchControl ? Stitch : Jump);
		sewn = true;
	}
	pattern.add(x, y, End);
	if (threads.length === 0 && palette.length > 0) threads.push(threadOf({ color: palette[0] }));
	pattern.threads = threads;
	return pattern;
}

/**
 * The reading half of a member's format module: none has a magic, so detection is by structure (strength
 * 2) and the registry takes a file only where the strict reader reads all of it. Read only, so no hoop.
 */
export function pfaffCreativeReading(
	variant: PfaffCreativeVariant,
): Pick<FormatModule, 'detect' | 'detectionStrength' | 'read' | 'largestHoop'> {
	return {
		detect: (bytes) => looksLikePfaffCreative(bytes, variant),
		detectionStrength: 2,
		read: (bytes) => readPfaffCreative(bytes, variant),
		largestHoop: null,
	};
}
