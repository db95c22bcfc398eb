/** Reads a Brother PEC file, and the PEC block that a PES file carries too. */
import { UnreadableSourceError } from '../errors';
import { countCommands } from '../normalise';
import { boundsOf, Command, Pattern, type Thread } from '../pattern';
import { repeatedThreadsAsStops } from '../threads/colourBlocks';
import { pecThreadChart } from '../threads/pecThreads';
import { ByteCursor, hasSignature } from './binaryIo';
import { warnEndsEarly } from './endsEarly';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch: STITCH, Jump: JUMP, Trim: TRIM, ColorChange: COLOR_CHANGE, End: END } = Command;

export const signature = '#PEC0001';
const pecStart = signature.length;

export function looksLikePec(bytes: Uint8Array): boolean {
	return hasSignature(bytes, signature) && looksLikePecBlock(bytes, pecStart);
}

export function readPec(bytes: Uint8Array): Pattern {
	if (!looksLikePec(bytes)) {
		throw new UnreadableSourceError(
			'The PEC file is damaged: it does not start with "#PEC0001" and a PEC label.',
		);
	}
	return readPecBlock(bytes, pecStart, 'PEC');
}

/**
 * The PEC block: what Brother machines actually sew. It is the whole of a .pec file (after its
 * 8-byte signature) and the tail of every .pes file. Layout from the block's start:
 *   0   "LA:" + 16-character label + CR, padding, 0xFF 0x00, icon stride and height
 *   48  colour count - 1, then one PEC chart code per colour block, padded with spaces to 512
 *   512 stitch section: 2 bytes, 24-bit section length, 3 fixed bytes, width, height, 2 words
 *   528 stitches, then 0xFF; then 1 + colour-count one-bit icons.
 */
const colourListOffset = 48;
export const stitchSectionOffset = 512;
const stitchesOffset = 528;
/** Codes ride in one byte and 0xFF means "none", so 255 colour blocks is the most a PEC can hold. */
export const maxPecColourBlocks = 255;
/** Moves are 12-bit signed numbers. */
export const maxPecMove = 2047;

export const flagLong = 0x80;
export const flagTrim = 0x20;
export const flagJump = 0x10;
export const endMarker = 0xff;
export const colourChangeMarker = 0xfe;
export const colourChangeSecond = 0xb0;

/**
 * The threads of each colour block. A PES thread list with an entry per block maps one to one;
 * a shorter list gives one entry per distinct chart code, in order of first use (how PE-Design
 * writes it); without a list the PEC chart names the colours.
 */
function blockThreads(codes: Uint8Array, listed: Thread[]): Thread[] {
	if (listed.length === 0) return [...codes].map((code) => pecThreadChart.threadForCode(code));
	if (listed.length >= codes.length) return listed.slice(0, codes.length);
	const byCode = new Map<number, Thread>();
	let next = 0;
	return [...codes].map((code) => {
		let thread = byCode.get(code);
		if (!thread) {
			thread = next < listed.length ? listed[next++] : pecThreadChart.threadForCode(code);
			byCode.set(code, thread);
		}
		return thread;
	});
}

function signed12(high: number, low: number): number {
	const value = ((high & 0x0f) << 8) | low;
	return value > 0x7ff ? value - 0x1000 : value;
}

function signed7(value: number): number {
	return value > 63 ? value - 128 : value;
}

/** Read the PEC block starting at `start`; `listedThreads` come from a PES header when it has them. */
export function readPecBlock(
	bytes: Uint8Array,
	start: number,
	formatLabel: string,
	listedThreads: Thread[] = [],
): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, formatLabel);
	cursor.seek(start);
	if (cursor.latin1(3) !== 'LA:') cursor.fail('the PEC block has no "LA:" label');
	cursor.seek(start + colourListOffset);
	const lastColour = cursor.u8();
	const codes = cursor.slice(lastColour === 0xff ? 0 : lastColour + 1);
	const section = start + stitchSectionOffset;
	// Only a stitch section declared to reach past the file's end may be a file cut short.
	const mayBeCut = section + declaredSectionLength(bytes, section) > bytes.length;
	const decoded = { end: 0, cut: false };
	const pattern = decodePecStitches(bytes, start + stitchesOffset, formatLabel, decoded, mayBeCut);
	if (decoded.cut) {
		expectDeclaredSize(bytes, section + 8, pattern, cursor, true);
		warnEndsEarly(pattern, 'without its end-of-design marker');
	} else {
		expectDeclaredSection(bytes, section, decoded.end, pattern, cursor);
	}
	const blocks = countCommands(pattern, COLOR_CHANGE) + 1;
	pattern.threads = blockThreads(decoded.cut ? codes.subarray(0, blocks) : codes, listedThreads);
	repeatedThreadsAsStops(pattern);
	return pattern;
}

/** The stitch section's length as its header declares it: from the section's start to past its end marker. */
const declaredSectionLength = (bytes: Uint8Array, section: number) =>
	bytes[section + 2] | (bytes[section + 3] << 8) | (bytes[section + 4] << 16);

/** How far, in 0.1 mm, the design may span more than the width and height its header declares. */
const sizeTolerance = 2;
/**
 * How far, in 0.1 mm, the design may span less than its header declares: some writers leave a margin (a
 * real PES 2.0, lobster.pes of embroidery-converter-kit, declares 776 x 1752 for stitches of 774 x 1749).
 */
const marginTolerance = (declared: number) => Math.max(5, Math.ceil(declared * 0.01));

/**
 * Throws unless the stitch section's header agrees with the stitches read: its 24-bit length reaches just
 * past the end-of-design marker at `end`, and its width and height are the design's. A changed byte that
 * turns a short record into a long one (or back) garbles every stitch after it; these show it.
 */
function expectDeclaredSection(
	bytes: Uint8Array,
	section: number,
	end: number,
	pattern: Pattern,
	cursor: ByteCursor,
): void {
	const declared = declaredSectionLength(bytes, section);
	if (declared !== end + 1 - section)
		cursor.fail(
			`its stitch section declares ${declared} bytes, but its stitches end after ${end + 1 - section}`,
		);
	expectDeclaredSize(bytes, section + 8, pattern, cursor);
}

/**
 * Throws unless the 16-bit width and height at `at` are the size of the stitches read, within
 * `sizeTolerance` more and `marginTolerance` less: the PEC block's stitch section and the wrappers' stitch
 * headers declare it. A size of
 * 0 x 0 is one a writer left unset (Embroidermodder's own PEC and PES of its logo), not a size to check.
 * Of a file cut short (`cut`), the stitches read may span less, never more.
 */
export function expectDeclaredSize(
	bytes: Uint8Array,
	at: number,
	pattern: Pattern,
	cursor: ByteCursor,
	cut = false,
): void {
	const width = bytes[at] | (bytes[at + 1] << 8);
	const height = bytes[at + 2] | (bytes[at + 3] << 8);
	if (width === 0 && height === 0) return;
	const bounds = boundsOf(pattern, [STITCH, JUMP]);
	const [sewnWidth, sewnHeight] = bounds
		? [bounds.maxX - bounds.minX, bounds.maxY - bounds.minY]
		: [0, 0];
	// A size past what 16 bits hold is written as their most (a design of over 6.5 m, beyond any hoop).
	const differs = (declared: number, sewn: number) =>
		!(declared === 0xffff && sewn >= 0xffff) &&
		(sewn - declared > sizeTolerance || (!cut && declared - sewn > marginTolerance(declared)));
	if (differs(width, sewnWidth) || differs(height, sewnHeight))
		cursor.fail(
			`its header declares a design of ${width} x ${height} (0.1 mm), but its stitches ` +
				`${cut ? "before the file's end already " : ''}span ${sewnWidth} x ${sewnHeight}`,
		);
}

/**
 * PEC's stitch records from `start` to the end-of-design marker, without threads: the stitch part of
 * the PEC block and of the Brother formats that wrap it in their own header (PHB, PHC). `decoded.end`
 * is set to the marker's offset. With `mayBeCut`, records that run into the file's end without the
 * marker are read up to the last whole one and `decoded.cut` is set; otherwise that is refused.
 */
export function decodePecStitches(
	bytes: Uint8Array,
	start: number,
	formatLabel: string,
	decoded: { end: number; cut?: boolean } = { end: 0 },
	mayBeCut = false,
): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, formatLabel);
	cursor.seek(start);
	const end = bytes.length;
	// Every stitch takes at least 2 bytes, so the file size bounds the allocation.
	const pattern = new Pattern(Math.max(16, Math.min((end - start) >> 1, 1 << 22)));
	let x = 0;
	let y = 0;
	let at = start;
	const endsHere = (why: string): boolean => {
		if (!mayBeCut) cursor.fail(why);
		decoded.cut = true;
		return true;
	};
	for (;;) {
		if (at >= end && endsHere('the stitches end without the end-of-design marker')) break;
		const first = bytes[at];
		if (first === endMarker) {
			decoded.end = at;
			break;
		}
		if (first === colourChangeMarker && bytes[at + 1] === colourChangeSecond) {
			if (at + 3 > end && endsHere('a colour change is cut off at the end of the file')) break;
			pattern.add(x, y, COLOR_CHANGE);
			at += 3;
			continue;
		}
		if (at + 1 >= end && endsHere('a stitch is cut off at the end of the file')) break;
		let trim = false;
		let jump = false;
		let dx: number;
		if (first & flagLong) {
			trim = (first & flagTrim) !== 0;
			jump = (first & flagJump) !== 0;
			dx = signed12(first, bytes[at + 1]);
			at += 2;
		} else {
			dx = signed7(first);
			at += 1;
		}
		if (at >= end && endsHere('a stitch is cut off at the end of the file')) break;
		const second = bytes[at];
		let dy: number;
		if (second & flagLong) {
			if (at + 1 >= end && endsHere('a stitch is cut off at the end of the file')) break;
			trim ||= (second & flagTrim) !== 0;
			jump ||= (second & flagJump) !== 0;
			dy = signed12(second, bytes[at + 1]);
			at += 2;
		} else {
			dy = signed7(second);
			at += 1;
		}
		x += dx;
		y += dy;
		if (trim) pattern.add(x - dx, y - dy, TRIM);
		if (trim && dx === 0 && dy === 0) continue;
		pattern.add(x, y, trim || jump ? JUMP : STITCH);
	}
	pattern.add(x, y, END);
	return pattern;
}

/** Whether `start` holds something shaped like a PEC block (label and a plausible colour list). */
export function looksLikePecBlock(bytes: Uint8Array, start: number): boolean {
	if (start < 0 || start + stitchesOffset > bytes.length) return false;
	return bytes[start] === 0x4c && bytes[start + 1] === 0x41 && bytes[start + 2] === 0x3a;
}
