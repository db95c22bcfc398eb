/** Reads Singer XXX: stitch and control records, the 5-byte long jumps, and the colour table after the end. */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor, signed8 } from './binaryIo';

export const headerSize = 0x100;
export const colourCountOffset = 0x27;
export const endOffsetField = 0xfc;
export const maxStitch = 124;
export const maxLongJump = 32000;
export const controlLead = 0x7f;
/** 0x7D (and 0x7E, rarely seen) lead a 5-byte jump with 16-bit moves. */
export const longJumpLead = 0x7d;
const otherLongJumpLead = 0x7e;
export const jumpCode = 0x01;
export const trimCode = 0x03;
export const colourChangeCode = 0x08;
export const endCode = 0x7f;
const otherEndCode = 0x18;
/** Codes 0x0A-0x17 pick a needle: a colour change, as 0x08 is. */
const firstNeedleCode = 0x0a;
const lastNeedleCode = 0x17;
/** More colours than any machine has needles or a file lists; a larger count is damage. */
const maxColours = 1024;

/**
 * Walks the stitch records from the header to the end record, telling `builder` what they do
 * (or only finding the end, for detection). Returns the offset after the end record, or -1.
 */
function walkRecords(bytes: Uint8Array, builder: RelativePatternBuilder | null): number {
	const cursor = new ByteCursor(bytes, 'XXX');
	let offset = headerSize;
	while (offset < bytes.length) {
		const lead = bytes[offset];
		if (lead === longJumpLead || lead === otherLongJumpLead) {
			if (offset + 5 > bytes.length) break;
			cursor.seek(offset + 1);
			builder?.jump(cursor.i16le(), -cursor.i16le());
			offset += 5;
			continue;
		}
		if (offset + 2 > bytes.length) break;
		if (lead !== controlLead) {
			builder?.stitch(signed8(lead), -signed8(bytes[offset + 1]));
			offset += 2;
			continue;
		}
		if (offset + 4 > bytes.length) break;
		const code = bytes[offset + 1];
		const dx = signed8(bytes[offset + 2]);
		const dy = -signed8(bytes[offset + 3]);
		offset += 4;
		if (code === endCode || code === otherEndCode) return offset;
		const colourChange =
			code === colourChangeCode || (code >= firstNeedleCode && code <= lastNeedleCode);
		if (code !== jumpCode && code !== trimCode && !colourChange) {
			if (builder)
				cursor.fail(`control code 0x${code.toString(16)} at byte ${offset - 4} is not XXX's`);
			return -1;
		}
		if (!builder) continue;
		if (code === jumpCode) {
			builder.jump(dx, dy);
		} else if (code === trimCode) {
			builder.trim();
			builder.jump(dx, dy);
		} else {
			builder.jump(dx, dy);
			builder.colourChange();
		}
	}
	return -1;
}

export function readXxx(bytes: Uint8Array): Pattern {
	if (bytes.length < headerSize) {
		throw new UnreadableSourceError(
			`An XXX file starts with a ${headerSize}-byte header, but this file has only ${bytes.length} bytes.`,
		);
	}
	const cursor = new ByteCursor(bytes, 'XXX');
	if (bytes.subarray(0, 0x17).some((byte) => byte !== 0))
		cursor.fail('its header does not start with the 23 zero bytes of an XXX header');
	cursor.seek(colourCountOffset);
	const colourCount = cursor.u16le();
	if (colourCount > maxColours) cursor.fail(`its header claims ${colourCount} colours`);
	const builder = new RelativePatternBuilder(Math.max(1024, (bytes.length - headerSize) >> 1));
	const afterEnd = walkRecords(bytes, builder);
	if (afterEnd < 0) cursor.fail('the stitches end without the end record');
	const pattern = builder.finish();
	// Two filler bytes follow the end record, then one 0x00RRGGBB entry per colour.
	for (
		let i = 0, offset = afterEnd + 2;
		i < colourCount && offset + 4 <= bytes.length;
		i++, offset += 4
	) {
		pattern.threads.push({
			color: ((bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0,
		});
	}
	return pattern;
}

/** An XXX file's stitches end in 0x7F 0x7F, with its colour table fitting after it. */
export function looksLikeXxx(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize + 4) return false;
	for (let i = 0; i < 0x17; i++) if (bytes[i] !== 0) return false;
	const colourCount = bytes[colourCountOffset] | (bytes[colourCountOffset + 1] << 8);
	if (colourCount > maxColours) return false;
	const cursor = new ByteCursor(bytes, 'XXX');
	cursor.seek(endOffsetField);
	const declaredEnd = cursor.u32le();
	if (declaredEnd + 2 <= bytes.length && declaredEnd >= headerSize) {
		if (bytes[declaredEnd] === controlLead && bytes[declaredEnd + 1] === endCode) return true;
	}
	const afterEnd = walkRecords(bytes, null);
	return afterEnd >= 0 && afterEnd + 2 + 4 * colourCount <= bytes.length;
}
