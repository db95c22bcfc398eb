/** Reads Ameco NEW, strictly: it has no magic, so a file is NEW only where every record fits. */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor } from './binaryIo';

/**
 * A 16-bit count of the records before the end, then 3-byte records: the move's size on x and y, then
 * flags. Every record sets 0x80; 0x40 makes x negative, 0x20 makes y point down; the low five bits say
 * what the record does: 0x00 stitch, 0x01 jump, 0x1b trim, 0x11 end (repeated to the end of the file),
 * and another odd value picks a needle (the value's upper four bits), which is a colour change; a
 * second needle record right after the first is part of the same change.
 */
const recordsOffset = 2;
const recordBytes = 3;
const alwaysSet = 0x80;
const xNegative = 0x40;
const yDown = 0x20;
const actionMask = 0x1f;
const stitchAction = 0x00;
const jumpAction = 0x01;
const trimAction = 0x1b;
const endAction = 0x11;
/** Records checked by the cheap content check before the whole file is read. */
const recordsChecked = 64;

export function looksLikeNew(bytes: Uint8Array): boolean {
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0) return false;
	if ((bytes[bytes.length - 1] & actionMask) !== endAction) return false;
	const checked = Math.min(bytes.length, recordsOffset + recordsChecked * recordBytes);
	for (let at = recordsOffset + 2; at < checked; at += recordBytes)
		if ((bytes[at] & alwaysSet) === 0) return false;
	return true;
}

export function readNew(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'NEW');
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0)
		cursor.fail(`its ${bytes.length} bytes are not a 2-byte count and whole 3-byte records`);
	const declared = bytes[0] | (bytes[1] << 8);
	const builder = new RelativePatternBuilder(Math.max(1024, length / recordBytes + 2));
	let records = 0;
	let needlePicked = false;
	let at = recordsOffset;
	for (; at < bytes.length; at += recordBytes) {
		const flags = bytes[at + 2];
		if ((flags & alwaysSet) === 0)
			cursor.fail(`the record at byte ${at} lacks the flag bit 0x80 every NEW record sets`);
		const action = flags & actionMask;
		if (action === endAction) break;
		records++;
		const dx = flags & xNegative ? -bytes[at] : bytes[at];
		const dy = flags & yDown ? bytes[at + 1] : -bytes[at + 1];
		const picksNeedle = action !== jumpAction && action !== trimAction && (action & 1) === 1;
		if (action === stitchAction) builder.stitch(dx, dy);
		else if (action === jumpAction) builder.jump(dx, dy);
		else if (action === trimAction) {
			builder.trim();
			builder.jump(dx, dy);
		} else if (picksNeedle) {
			if (!needlePicked) builder.colourChange();
			builder.jump(dx, dy);
		} else
			cursor.fail(`the record at byte ${at} has action 0x${action.toString(16)}, which NEW lacks`);
		needlePicked = picksNeedle;
	}
	if (at >= bytes.length) cursor.fail('the records end without the end record');
	for (; at < bytes.length; at += recordBytes)
		if ((bytes[at + 2] & actionMask) !== endAction || bytes[at] !== 0 || bytes[at + 1] !== 0)
			cursor.fail(`the record at byte ${at} follows the end record`);
	if (records % 0x10000 !== declared)
		cursor.fail(`its header counts ${declared} records, but ${records} come before the end`);
	return builder.finish();
}
