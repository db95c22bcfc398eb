/** Reads Melco EXP, and recognises it among other byte streams by the plausibility of its records. */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { hasSignature, signed8 } from './binaryIo';

export const maxStep = 127;
export const control = 0x80;
export const colourChangeCode = 0x01;
const jumpCodes = new Set([0x02, 0x04]);
export const jumpCode = 0x04;
export const trimCode = 0x80;

/**
 * Signatures of common files and of embroidery formats with a header, which would otherwise pass as plausible
 * EXP stitches: EXP has no header, so a file that opens with one is not EXP.
 */
const foreignSignatures = [
	'%vsm%',
	'#PES',
	'#PEC',
	'#PHC',
	'#PHB',
	'STX',
	'LA:',
	'\x89PNG',
	'\xff\xd8\xff',
	'GIF8',
	'%PDF',
	'PK\x03\x04',
	'RIFF',
	'<?xml',
	'<svg',
	'BM',
];

/**
 * Of any this many stitches in a row, at most `mostStitchesInPlace` may not move: more is a header's zero
 * padding or a preview picture read as stitches, not a design (real designs hold at most 5 of 64).
 */
const inPlaceWindow = 64;
const mostStitchesInPlace = 16;
/**
 * Stitches in a row whose bytes are both printable text (each a move of 3.2 to 12.6 mm right and up): more is
 * a header's text read as stitches (real designs hold at most 2 in a row).
 */
const mostTextStitches = 16;
/**
 * Stitches in a row whose one byte counts up by one while the other stays: more is a header's table of
 * successive numbers (STX's colour list, 1 to 15 over and over) read as stitches straight along one axis, each
 * 0.1 mm longer than the last; every real design at hand, as EXP, holds at most 4 in a row.
 */
const mostCountingStitches = 8;
const isText = (byte: number) => byte >= 0x20 && byte <= 0x7e;
/**
 * Stitches in a row that take turns between long (9 mm or more) and tiny (0.5 mm or less): more is another
 * format's records read as EXP, such as Toyota 100's moves ([code, 0, x, y]: a 0.3 mm stitch, then 11 mm,
 * over and over). A satin's stitches, a fill's and a run's each keep about the same length from one to the
 * next; every real design at hand (391 files as EXP) holds at most 2 such stitches in a row.
 */
const mostLongAndTinyInTurn = 8;
const longStitch = 90;
const tinyStitch = 5;
/**
 * Stitches in a row of which every other one does not move: more is a table of 32-bit numbers read as
 * stitches, each number's zero upper half a stitch in place (JEF's header before Star.EXP's records); every
 * real design at hand (391 files as EXP) holds at most 4 such stitches in a row.
 */
const mostStillInTurn = 8;
/** A stitch's kind for `mostLongAndTinyInTurn`: 1 long, -1 tiny, 0 neither. */
function lengthKind(dx: number, dy: number): number {
	const square = dx * dx + dy * dy;
	if (square >= longStitch * longStitch) return 1;
	return square <= tinyStitch * tinyStitch ? -1 : 0;
}

/**
 * Reads every record of the file and throws where one does not fit EXP: an unknown control code, a
 * record cut short, zero padding, or the flag bytes of 3-byte records. EXP has no magic, so the
 * registry takes a file as EXP only when this reads all of it.
 */
export function readExp(bytes: Uint8Array): Pattern {
	if (bytes.length < 2)
		throw new UnreadableSourceError('The EXP file is empty: it holds no stitch records.');
	const foreign = foreignSignatures.find((signature) => hasSignature(bytes, signature));
	if (foreign)
		throw new UnreadableSourceError(
			`The file is not EXP, which has no header: it starts with ${JSON.stringify(foreign)}.`,
		);
	if (bytes.length % 2 !== 0)
		throw new UnreadableSourceError(
			`The file is not EXP: its ${bytes.length} bytes are not whole 2-byte records.`,
		);
	if (hasThreeByteRecords(bytes))
		throw new UnreadableSourceError(
			'The file is not EXP: every third byte holds the same flags, as in 3-byte records.',
		);
	const recordsAt = threeByteRecordRun(bytes);
	if (recordsAt >= 0)
		throw new UnreadableSourceError(
			`The file is not EXP: from byte ${recordsAt}, ${mostRegularThirds} of ${thirdsWindow} bytes three ` +
				'apart hold the same value, as the flags of 3-byte records (another format) do.',
		);
	const builder = new RelativePatternBuilder(Math.max(1024, (bytes.length >> 1) + 2));
	// Whether each of the last `inPlaceWindow` stitches moved not at all, as a ring, and how many did not.
	const stillRing = new Uint8Array(inPlaceWindow);
	let stitches = 0;
	let inPlace = 0;
	let textRun = 0;
	let countingRun = 0;
	// Stitches in a row taking turns between long and tiny, and the kind of the last of them.
	let turnRun = 0;
	let lastKind = 0;
	// Stitches in a row that take turns moving and not, and whether the last of them moved.
	let stillTurnRun = 0;
	let lastStill = -1;
	let offset = 0;
	while (offset < bytes.length) {
		const b0 = bytes[offset];
		const b1 = bytes[offset + 1];
		if (b0 !== control) {
			countingRun = countsOn(bytes, offset) ? countingRun + 1 : 1;
			if (countingRun > mostCountingStitches)
				throw new UnreadableSourceError(
					`The file is not EXP: the ${countingRun} stitches in a row up to byte ${offset} count up by ` +
						"one, each 0.1 mm longer than the last (a header's table of numbers, not a design).",
				);
			const still = b0 === 0 && b1 === 0 ? 1 : 0;
			stillTurnRun = still === 1 - lastStill ? stillTurnRun + 1 : 1;
			lastStill = still;
			if (stillTurnRun > mostStillInTurn)
				throw new UnreadableSourceError(
					`The file is not EXP: of the ${stillTurnRun} stitches in a row up to byte ${offset}, every ` +
						"other one does not move (a header's table of numbers, not a design).",
				);
			const slot = stitches++ % inPlaceWindow;
			inPlace += still - stillRing[slot];
			stillRing[slot] = still;
			if (inPlace > mostStitchesInPlace)
				throw new UnreadableSourceError(
					`The file is not EXP: more than ${mostStitchesInPlace} of ${inPlaceWindow} stitches in a row ` +
						`up to byte ${offset} do not move (a header's padding or a picture, not a design).`,
				);
			textRun = isText(b0) && isText(b1) ? textRun + 1 : 0;
			if (textRun > mostTextStitches)
				throw new UnreadableSourceError(
					`The file is not EXP: the ${textRun} stitches in a row up to byte ${offset} are printable ` +
						"text, each a long move right and up (a header's text, not a design).",
				);
			const kind = lengthKind(signed8(b0), signed8(b1));
			turnRun = kind === 0 ? 0 : kind === -lastKind ? turnRun + 1 : 1;
			lastKind = kind;
			if (turnRun > mostLongAndTinyInTurn)
				throw new UnreadableSourceError(
					`The file is not EXP: the ${turnRun} stitches in a row up to byte ${offset} take turns between ` +
						"9 mm or more and 0.5 mm or less (another format's records, not a design).",
				);
			builder.stitch(signed8(b0), -signed8(b1));
			offset += 2;
			continue;
		}
		if (offset + 4 > bytes.length)
			throw new UnreadableSourceError(
				`The EXP file ends inside a control record at byte ${offset}.`,
			);
		const dx = signed8(bytes[offset + 2]);
		const dy = -signed8(bytes[offset + 3]);
		offset += 4;
		textRun = 0;
		countingRun = 0;
		turnRun = 0;
		lastKind = 0;
		stillTurnRun = 0;
		lastStill = -1;
		if (b1 === colourChangeCode) {
			builder.colourChange();
			builder.jump(dx, dy);
		} else if (jumpCodes.has(b1)) {
			// Melco's notes list 0x02 as a jump lead-in; the needle only moves there.
			builder.jump(dx, dy);
		} else if (b1 === trimCode) {
			// The two bytes after a trim are filler (often 07 00), not a move.
			builder.trim();
		} else {
			throw new UnreadableSourceError(
				`The file is not EXP: control code 0x${b1.toString(16)} at byte ${offset - 4} is not one of ` +
					`EXP's (colour change, jump, trim).`,
			);
		}
	}
	return builder.finish();
}

/** True when the stitch record at `offset` follows a stitch record whose one byte is one less, the other equal. */
function countsOn(bytes: Uint8Array, offset: number): boolean {
	if (offset < 2 || bytes[offset - 2] === control) return false;
	const [b0, b1, a0, a1] = [bytes[offset], bytes[offset + 1], bytes[offset - 2], bytes[offset - 1]];
	return (b0 === a0 + 1 && b1 === a1) || (b1 === a1 + 1 && b0 === a0);
}

/**
 * True when one value fills nearly every third byte while neither byte of a 2-byte record is that
 * regular: the control flags of DST, TAP or DAT records, never EXP's dx, dy pairs.
 */
function hasThreeByteRecords(bytes: Uint8Array): boolean {
	if (bytes.length < 300) return false;
	const regularity = (period: number, column: number) => {
		const counts = new Uint32Array(256);
		let total = 0;
		for (let offset = column; offset < bytes.length; offset += period, total++)
			counts[bytes[offset]]++;
		return Math.max(...counts) / total;
	};
	const third = Math.max(regularity(3, 0), regularity(3, 1), regularity(3, 2));
	return third >= 0.9 && regularity(2, 0) < 0.5 && regularity(2, 1) < 0.5;
}

/**
 * Of any `thirdsWindow` bytes three apart, at most `mostRegularThirds - 1` may hold the same value where the
 * bytes between them are irregular as 2-byte records: DAT's and 10O's records of a star read as EXP reach
 * 15 or 16 of 16 within 64 bytes; every real design at hand, as EXP, at most 12.
 */
const thirdsWindow = 16;
const mostRegularThirds = 15;

/**
 * Where a stretch of 3-byte records begins (the byte offset of its window), or -1: the windowed form of
 * `hasThreeByteRecords`, for another format's records before or over the start of EXP records.
 */
function threeByteRecordRun(bytes: Uint8Array): number {
	const span = 3 * thirdsWindow;
	const counts = new Uint16Array(256);
	for (let column = 0; column < 3; column++) {
		counts.fill(0);
		for (let k = 0, at = column; at < bytes.length; k++, at += 3) {
			counts[bytes[at]]++;
			if (k >= thirdsWindow) counts[bytes[at - span]]--;
			if (counts[bytes[at]] < mostRegularThirds) continue;
			const start = at - span + 3;
			if (!twoByteRegular(bytes, start, Math.min(bytes.length, start + span))) return start;
		}
	}
	return -1;
}

/** True when one value fills half or more of either byte of the 2-byte records in [start, end). */
function twoByteRegular(bytes: Uint8Array, start: number, end: number): boolean {
	for (let column = 0; column < 2; column++) {
		const counts = new Map<number, number>();
		let total = 0;
		for (let at = start + column; at < end; at += 2, total++)
			counts.set(bytes[at], (counts.get(bytes[at]) ?? 0) + 1);
		if (Math.max(...counts.values()) >= total / 2) return true;
	}
	return false;
}

/**
 * EXP has no magic, so it is judged by structure: every control record known, stitches mostly
 * short, as digitised designs are (random bytes give long ones), and the needle moving both ways
 * along at least one axis (text, whose bytes are all below 0x80, only ever moves right and up).
 */
export function looksLikeExp(bytes: Uint8Array): boolean {
	if (bytes.length < 4 || bytes.length % 2 !== 0) return false;
	if (foreignSignatures.some((signature) => hasSignature(bytes, signature))) return false;
	const end = Math.min(bytes.length, 16384);
	let stitches = 0;
	let shortStitches = 0;
	const signs = { left: 0, right: 0, up: 0, down: 0 };
	let offset = 0;
	while (offset + 2 <= end) {
		const b0 = bytes[offset];
		const b1 = bytes[offset + 1];
		if (b0 === control) {
			if (b1 !== colourChangeCode && b1 !== trimCode && !jumpCodes.has(b1)) return false;
			if (offset + 4 > bytes.length) return false;
			offset += 4;
			continue;
		}
		const dx = signed8(b0);
		const dy = signed8(b1);
		stitches++;
		if (Math.abs(dx) <= 100 && Math.abs(dy) <= 100) shortStitches++;
		if (dx < 0) signs.left++;
		if (dx > 0) signs.right++;
		if (dy < 0) signs.down++;
		if (dy > 0) signs.up++;
		offset += 2;
	}
	const share = Math.max(1, stitches * 0.02);
	const backAndForth =
		(signs.left >= share && signs.right >= share) || (signs.up >= share && signs.down >= share);
	return stitches > 0 && shortStitches >= stitches * 0.9 && backAndForth;
}
