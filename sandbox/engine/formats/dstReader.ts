/** Reads Tajima DST: the balanced-ternary records, a run of three jumps as a trim, thread colours from the header. */
import { UnreadableSourceError } from '../errors';
import { recordsBuilder, type RelativePatternBuilder } from '../normalise';
import { boundsOf, Command, threadOf, type Pattern, type Thread } from '../pattern';
import { warnEndsEarly } from './endsEarly';
import { endingOf } from './u01Reader';

export const headerSize = 512;
export const maxStep = 121;
/** Jumps in a row that Tajima machines (at their usual setting) turn into a trim. */
export const jumpsPerTrim = 3;

export const flagJump = 0x80;
export const flagColourChange = 0x40;
export const endMask = 0xf3;
const colourChangeMask = 0xc3;
const sequinMask = 0x43;
const jumpMask = 0x83;
/** The two low bits of every record's third byte. */
const alwaysSet = 0x03;

/** Ternary digit weights and the (byte, bit) of their +/- flags, per axis (y is up in DST). */
export const xDigits = [
	{ weight: 81, byte: 2, plus: 2, minus: 3 },
	{ weight: 27, byte: 1, plus: 2, minus: 3 },
	{ weight: 9, byte: 0, plus: 2, minus: 3 },
	{ weight: 3, byte: 1, plus: 0, minus: 1 },
	{ weight: 1, byte: 0, plus: 0, minus: 1 },
];
export const yDigits = [
	{ weight: 81, byte: 2, plus: 5, minus: 4 },
	{ weight: 27, byte: 1, plus: 5, minus: 4 },
	{ weight: 9, byte: 0, plus: 5, minus: 4 },
	{ weight: 3, byte: 1, plus: 7, minus: 6 },
	{ weight: 1, byte: 0, plus: 7, minus: 6 },
];

export type Digit = (typeof xDigits)[number];

function decodeAxis(b0: number, b1: number, b2: number, digits: Digit[]): number {
	const bytes = [b0, b1, b2];
	let value = 0;
	for (const digit of digits) {
		const byte = bytes[digit.byte];
		if (byte & (1 << digit.plus)) value += digit.weight;
		if (byte & (1 << digit.minus)) value -= digit.weight;
	}
	return value;
}

/** Each byte's share of the x and y move, so decoding a record is six table lookups. */
const xFromByte0 = new Int8Array(256);
const xFromByte1 = new Int8Array(256);
const xFromByte2 = new Int8Array(256);
const yFromByte0 = new Int8Array(256);
const yFromByte1 = new Int8Array(256);
const yFromByte2 = new Int8Array(256);

for (let byte = 0; byte < 256; byte++) {
	xFromByte0[byte] = decodeAxis(byte, 0, 0, xDigits);
	xFromByte1[byte] = decodeAxis(0, byte, 0, xDigits);
	xFromByte2[byte] = decodeAxis(0, 0, byte, xDigits);
	yFromByte0[byte] = decodeAxis(byte, 0, 0, yDigits);
	yFromByte1[byte] = decodeAxis(0, byte, 0, yDigits);
	yFromByte2[byte] = decodeAxis(0, 0, byte, yDigits);
}

/** The thread colours of a Tajima header's extension; the standard fields are recomputed, not trusted. */
export function headerThreads(bytes: Uint8Array): Thread[] {
	const threads: Thread[] = [];
	let text = '';
	for (let i = 0; i < headerSize; i++) text += String.fromCharCode(bytes[i]);
	for (const line of text.split(/[\r\n\x1a]/)) {
		const match = /^\s*TC:(.*)$/.exec(line);
		const thread = match ? parseThreadLine(match[1]) : null;
		if (thread) threads.push(thread);
	}
	return threads;
}

/** `TC:#RRGGBB,description,catalog`: the thread lines of the extended header. */
function parseThreadLine(value: string): Thread | null {
	const [hex, name, catalog] = value.split(',').map((part) => part.trim());
	const match = /^#?([0-9a-fA-F]{6})$/.exec(hex ?? '');
	if (!match) return null;
	return threadOf({ color: parseInt(match[1], 16), name, catalogNumber: catalog });
}

/**
 * Decodes Tajima's 3-byte records from `start` into `builder` until the END record or the last whole
 * record, throwing at a record without Tajima's two always-set bits: DST after its header, TAP (the same
 * records without one). Returns the offset of the END record, or of the first byte no whole record
 * covers when there is none.
 */
export function decodeTajimaRecords(
	bytes: Uint8Array,
	start: number,
	builder: RelativePatternBuilder,
): number {
	// A run of three or more jumps is the machine's trim, placed where the run began.
	let runLength = 0;
	let runStart = 0;
	let runX = 0;
	let runY = 0;

	let sequinMode = false;
	let offset = start;
	for (; offset + 3 <= bytes.length; offset += 3) {
		const b0 = bytes[offset];
		const b1 = bytes[offset + 1];
		const b2 = bytes[offset + 2];
		if ((b2 & endMask) === endMask) return offset;
		if ((b2 & alwaysSet) !== alwaysSet)
			throw new UnreadableSourceError(
				`The file is not Tajima records: record ${(offset - start) / 3 + 1} lacks the two bits every ` +
					'Tajima record sets.',
			);
		const dx = xFromByte0[b0] + xFromByte1[b1] + xFromByte2[b2];
		const dy = -(yFromByte0[b0] + yFromByte1[b1] + yFromByte2[b2]);
		if ((b2 & colourChangeMask) === colourChangeMask) {
			runLength = 0;
			builder.jump(dx, dy);
			builder.colourChange();
		} else if ((b2 & sequinMask) === sequinMask) {
			// Sequins are not modelled: the mode switch and the sequin drops become plain moves.
			runLength = 0;
			sequinMode = !sequinMode;
			builder.jump(dx, dy);
		} else if ((b2 & jumpMask) === jumpMask) {
			if (sequinMode) {
				builder.jump(dx, dy);
				continue;
			}
			if (runLength === 0) {
				runStart = builder.pattern.length;
				runX = builder.x;
				runY = builder.y;
			}
			runLength++;
			builder.jump(dx, dy);
			if (runLength === jumpsPerTrim) builder.trimBefore(runStart, runX, runY);
		} else {
			runLength = 0;
			builder.stitch(dx, dy);
		}
	}
	return offset;
}

/**
 * A DST whose records stop without the END record, or in the middle of a record, is read up to its last
 * whole record with a warning, as machines sew it; one whose END comes before the records its header
 * declares is refused (a changed byte that reads as END would otherwise hide the rest of the design).
 */
export function readDst(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'DST');
	expectTajimaHeader(bytes, 'Tajima DST');
	const endAt = decodeTajimaRecords(bytes, headerSize, builder);
	const pattern = builder.finish();
	checkTajimaEnd(bytes, pattern, endAt, 'DST');
	pattern.threads = headerThreads(bytes);
	return pattern;
}

/** The records a Tajima-style header's ST: field declares, or null without one. */
export function declaredRecords(bytes: Uint8Array): number | null {
	const declared = /ST:\s*(\d{1,9})/.exec(String.fromCharCode(...bytes.subarray(0, 128)))?.[1];
	return declared === undefined ? null : Number(declared);
}

/**
 * For Tajima-style records ending at `endAt` (the END record's offset, or the first byte no whole record
 * covers): warns when the file ends early, refuses an END before the records the header declares.
 */
export function checkTajimaEnd(
	bytes: Uint8Array,
	pattern: Pattern,
	endAt: number,
	label: string,
	endRecord = 'END record',
): void {
	const declared = declaredRecords(bytes);
	const records = (endAt - headerSize) / 3;
	const extentsDeclared = expectWithinDeclaredExtents(bytes, pattern, label);
	if (endAt + 3 > bytes.length) {
		// A file cut short keeps its whole header; a Tajima label before another format's bytes has none.
		if (!extentsDeclared)
			throw new UnreadableSourceError(
				`The ${label} file is damaged: its records end without the ${endRecord}, and its header ` +
					'does not declare the extents (+X, -X, +Y, -Y) to check what was read against.',
			);
		warnEndsEarly(
			pattern,
			endingOf(bytes, endAt, endRecord),
			declared && declared > records
				? { count: declared, what: 'records', read: records }
				: undefined,
		);
		return;
	}
	expectDeclaredRecords(declared, records + 1 + stillRecords(bytes, endAt + 3, declared), label);
	if (declared !== null && records + 1 > declared + extraRecordsSlack(declared))
		throw new UnreadableSourceError(
			`The ${label} file is damaged: its header declares ${declared} records, but ${records + 1} come ` +
				`up to its ${endRecord}.`,
		);
}

/**
 * How many more records than its ST: field a file may hold up to its END: real files hold 0 to 8 more (a
 * pyembroidery conversion 8 of 17,773, crown.dst 3); another file's records behind a Tajima header, tens
 * or thousands more.
 */
function extraRecordsSlack(declared: number): number {
	return Math.max(16, Math.ceil(declared * 0.01));
}

/**
 * Records after the END that move nothing (zero-length stitches, more END records), up to the count the
 * header declares: some writers count them (a real 10,283-record DST ends 00 00 F3, 00 00 03, 00 00 F3),
 * whereas a changed byte that reads as END leaves the rest of the design, which moves, behind it.
 */
function stillRecords(bytes: Uint8Array, from: number, declared: number | null): number {
	if (declared === null) return 0;
	let count = 0;
	for (let at = from; at + 3 <= bytes.length && count < declared; at += 3, count++) {
		const b2 = bytes[at + 2];
		if (bytes[at] !== 0 || bytes[at + 1] !== 0 || (b2 & alwaysSet) !== alwaysSet) break;
		if ((b2 & endMask) !== endMask && (b2 & ~alwaysSet) !== 0) break;
	}
	return count;
}

/**
 * How far past its header's +X, -X, +Y and -Y a design may reach on an axis `span` long (both declared
 * extents): writers round, some measure jumps too, and a real commercial DST (crown.dst) reaches 23 past
 * its +Y of 240 (4.5% of its 507 height); another format's bytes read as records wander metres off.
 */
function extentSlack(span: number): number {
	return Math.max(50, Math.ceil(span * 0.1));
}

/**
 * Throws when the design reaches well past the extents a Tajima-style header declares (+X, -X, +Y, -Y in
 * 0.1 mm from the start, y up): another format's bytes read as records wander off (a DSB header before
 * 10O records), and a cut-short reading can only hold less than its header, never more. Returns whether
 * the header declares all four.
 */
function expectWithinDeclaredExtents(bytes: Uint8Array, pattern: Pattern, label: string): boolean {
	const text = String.fromCharCode(...bytes.subarray(0, 128));
	const field = (name: string) => {
		const match = new RegExp(`\\${name}:\\s*(\\d{1,6})\\r`).exec(text);
		return match ? Number(match[1]) : null;
	};
	const [right, left, up, down] = ['+X', '-X', '+Y', '-Y'].map(field);
	if (right === null || left === null || up === null || down === null) return false;
	const bounds = boundsOf(pattern, [Command.Stitch, Command.Jump]);
	if (!bounds) return true;
	const xSlack = extentSlack(right + left);
	const ySlack = extentSlack(up + down);
	// pyembroidery's writer (and so Ink/Stitch's DST) puts the extent below the start in +Y and the one
	// above it in -Y: a design that fits its header either way round is read.
	const pastY = (above: number, below: number) =>
		-bounds.minY > above + ySlack || bounds.maxY > below + ySlack;
	const past =
		bounds.maxX > right + xSlack ||
		-bounds.minX > left + xSlack ||
		(pastY(up, down) && pastY(down, up));
	if (past)
		throw new UnreadableSourceError(
			`The ${label} file is damaged: its header declares extents of +X ${right}, -X ${left}, +Y ${up}, ` +
				`-Y ${down} (0.1 mm), but its records reach from (${bounds.minX}, ${-bounds.maxY}) to ` +
				`(${bounds.maxX}, ${-bounds.minY}).`,
		);
	return true;
}

/**
 * Throws when a Tajima-style header's ST: field declares more records than the file holds up to its END
 * (the END counted, and one more allowed, as writers differ on whether they count it): DST, DSB and DSZ share
 * the header, so a damaged file of one (a stray end code in its records) would otherwise complete as part of
 * a design.
 */
export function expectDeclaredRecords(
	declared: number | null,
	records: number,
	label: string,
): void {
	if (declared !== null && records + 1 < declared)
		throw new UnreadableSourceError(
			`The ${label} file is damaged: its header declares ${declared} records, but its END record ` +
				`comes after ${records}.`,
		);
}

/** Throws unless the file starts with a Tajima-style header, as DST, DSB and DSZ files do. */
export function expectTajimaHeader(bytes: Uint8Array, label: string): void {
	if (!hasTajimaHeader(bytes))
		throw new UnreadableSourceError(
			`The file is not ${label}: it does not start with a Tajima header (LA:, ST: and CO: fields).`,
		);
}

/** Where a Tajima header's fields end: past them, the header is padding (spaces) or more text. */
const headerFieldsEnd = 128;
/** Bytes of 0x80 or more a header may hold past its fields: a changed byte or two, never a run of records. */
const mostHighBytesInHeader = 16;

/**
 * True when the Tajima header is text past its fields, as every DSB and DSZ at hand has it (spaces to byte
 * 512, no byte of 0x80 or more): more than a few such bytes there are records, of a file spliced or shifted
 * under a cut header (a third of record bytes are control bytes of 0x80 or more). DSZ's records shifted by
 * two bytes are Barudan records, control byte first, that DSB's check alone would claim.
 */
export function hasTextHeaderTail(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize) return false;
	let high = 0;
	for (let at = headerFieldsEnd; at < headerSize; at++) if (bytes[at] >= 0x80) high++;
	return high <= mostHighBytesInHeader;
}

/** The start of a Tajima-style text header: a label line, or the stitch and colour count fields. */
export function hasTajimaHeader(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize) return false;
	const start = String.fromCharCode(...bytes.subarray(0, 128));
	// The label is text up to the end of its line: "LA:" before another format's binary is no header.
	const labelled = /^LA:[^\x00-\x1f\x7f]{0,20}[\r\n\x1a]/.test(start);
	const hasCountFields = /ST:[ \d]{1,9}\r/.test(start) && /CO:[ \d]{1,5}\r/.test(start);
	return labelled || hasCountFields;
}

/**
 * Records before the END code all carry DST's two always-set bits, and there is at least one (DSB and DSZ
 * share the header: theirs with the first record overwritten by END would otherwise pass as an empty DST);
 * a header field or two confirms it.
 */
export function looksLikeDst(bytes: Uint8Array): boolean {
	if (!hasTajimaHeader(bytes) || bytes.length < headerSize + 3) return false;
	if ((bytes[headerSize + 2] & endMask) === endMask) return false;
	const lastRecord = Math.min(bytes.length, headerSize + 3 * 4096);
	for (let offset = headerSize; offset + 3 <= lastRecord; offset += 3) {
		const b2 = bytes[offset + 2];
		if ((b2 & alwaysSet) !== alwaysSet) return false;
		if ((b2 & endMask) === endMask) break;
	}
	return true;
}
