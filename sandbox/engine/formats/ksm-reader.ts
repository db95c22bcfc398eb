/**
 * Reads Pfaff KSM, strictly: it has no magic, so a file is KSM only where every record fits. A 512-byte
 * header (zeros in the samples) is followed by 3-byte records: the move's size on y, its size on x, and
 * a control byte. Of the control byte, 0x80 is always set, 0x40 makes x negative, 0x20 makes y positive
 * (y is down), and the low five bits say what happens after the move: 0 nothing, 0x07, 0x13 or 0x1d
 * trim (moves are then jumps), 0x17-0x19 sew again, 0x0b-0x12 change to needle 1-8, 0x05 stop, 0x1b
 * prepare to end, 0x08 end, which is the last record.
 */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor } from './binary-io';

const recordsOffset = 0x200;
const recordBytes = 3;
const alwaysSet = 0x80;
const xNegative = 0x40;
const yPositive = 0x20;
const codeMask = 0x1f;
const endCode = 0x08;
const stopCode = 0x05;
const beforeEndCode = 0x1b;
const firstNeedle = 0x0b;
const lastNeedle = 0x12;
const firstSewAgain = 0x17;
const lastSewAgain = 0x19;
const trimCodes = new Set([0x07, 0x13, 0x1d]);
/** Records the cheap content check looks at before the whole file is read. */
const recordsChecked = 64;

function knownCode(code: number): boolean {
	return (
		code === 0 ||
		code === endCode ||
		code === stopCode ||
		code === beforeEndCode ||
		trimCodes.has(code) ||
		(code >= firstNeedle && code <= lastNeedle) ||
		(code >= firstSewAgain && code <= lastSewAgain)
	);
}

export function looksLikeKsm(bytes: Uint8Array): boolean {
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0) return false;
	const checked = Math.min(bytes.length, recordsOffset + recordsChecked * recordBytes);
	for (let at = recordsOffset + 2; at < checked; at += recordBytes) {
		const control = bytes[at];
		if ((control & alwaysSet) === 0 || !knownCode(control & codeMask)) return false;
	}
	return (bytes[bytes.length - 1] & codeMask) === endCode;
}

export function readKsm(bytes: Uint8Array): Pattern {
	const cursor = new ByteCursor(bytes, 'KSM');
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0)
		cursor.fail(`its ${bytes.length} bytes are not a 512-byte header and whole 3-byte records`);
	const builder = new RelativePatternBuilder(Math.max(1024, length / recordBytes + 2));
	const last = bytes.length - recordBytes;
	let trimmed = false;
	let sewn = false;
	for (let at = recordsOffset; at <= last; at += recordBytes) {
		const control = bytes[at + 2];
		const code = control & codeMask;
		if ((control & alwaysSet) === 0 || !knownCode(code))
			cursor.fail(`the record at byte ${at} has the control byte 0x${control.toString(16)}`);
		const dy = control & yPositive ? bytes[at] : -bytes[at];
		const dx = control & xNegative ? -bytes[at + 1] : bytes[at + 1];
		if (trimmed) {
			builder.jump(dx, dy);
		} else if (dx !== 0 || dy !== 0) {
			builder.stitch(dx, dy);
			sewn = true;
		}
		if (code === endCode) {
			if (at !== last) cursor.fail(`the end record at byte ${at} is not the last`);
			break;
		}
		if (at === last) cursor.fail('the last record is not the end record');
		if (trimCodes.has(code)) {
			builder.trim();
			trimmed = true;
		} else if (code >= firstSewAgain && code <= lastSewAgain) {
			trimmed = false;
		} else if (code >= firstNeedle && code <= lastNeedle) {
			// The first needle chosen before any sewing is the first colour, not a change.
			if (sewn) builder.colourChange();
			trimmed = true;
		} else if (code === stopCode) {
			builder.stop();
		} else if (code === beforeEndCode) {
			trimmed = false;
		}
	}
	return builder.finish();
}
