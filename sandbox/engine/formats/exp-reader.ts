/** Reads Melco EXP, and recognises it among other byte streams by the plausibility of its records. */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { hasSignature, signed8 } from './binary-io';

export const maxStep = 127;
export const control = 0x80;
export const colourChangeCode = 0x01;
const jumpCodes = new Set([0x02, 0x04]);
export const jumpCode = 0x04;
export const trimCode = 0x80;

export function readExp(bytes: Uint8Array): Pattern {
	if (bytes.length < 2)
		throw new UnreadableSourceError('The EXP file is empty: it holds no stitch records.');
	const builder = new RelativePatternBuilder(Math.max(1024, (bytes.length >> 1) + 2));
	let offset = 0;
	while (offset + 2 <= bytes.length) {
		const b0 = bytes[offset];
		const b1 = bytes[offset + 1];
		if (b0 !== control) {
			builder.stitch(signed8(b0), -signed8(b1));
			offset += 2;
			continue;
		}
		if (offset + 4 > bytes.length) break;
		const dx = signed8(bytes[offset + 2]);
		const dy = -signed8(bytes[offset + 3]);
		offset += 4;
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
			break;
		}
	}
	return builder.finish();
}

/** Signatures of common non-embroidery files, which would otherwise pass as plausible EXP stitches. */
const foreignSignatures = [
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
