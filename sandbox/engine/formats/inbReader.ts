/** Reads Inbro INB, strictly: it has no magic, so a file is INB only where every record fits. */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor } from './binaryIo';

/**
 * Records start at 8 KB and fill the rest of the file: the move's size on x and y, then flags. Of the
 * flags' top bits exactly one of 0x80 (x right) and 0x40 (x left) is set, and exactly one of 0x10 (up)
 * and 0x20 (down); the low four bits say what the record does: 0 stitch, 1 colour change, 2 jump,
 * 4 end, which is the last record and moves nowhere (some writers leave its sign flags clear).
 */
const recordsOffset = 0x2000;
const recordBytes = 3;
const xSigns = 0xc0;
const xLeft = 0x40;
const xRight = 0x80;
const ySigns = 0x30;
const yDown = 0x20;
const yUp = 0x10;
const actionMask = 0x0f;
const stitchAction = 0;
const colourChangeAction = 1;
const jumpAction = 2;
const endAction = 4;
/** Records checked by the cheap content check before the whole file is read. */
const recordsChecked = 64;

function signsFit(flags: number): boolean {
	const x = flags & xSigns;
	const y = flags & ySigns;
	return (x === xLeft || x === xRight) && (y === yUp || y === yDown);
}

export function looksLikeInb(bytes: Uint8Array): boolean {
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0) return false;
	const checked = Math.min(
		bytes.length - recordBytes,
		recordsOffset + recordsChecked * recordBytes,
	);
	for (let at = recordsOffset; at < checked; at += recordBytes)
		if (!signsFit(bytes[at + 2])) return false;
	return (bytes[bytes.length - 1] & actionMask) === endAction;
}

export function readInb(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'INB');
	const length = bytes.length - recordsOffset;
	if (length < recordBytes || length % recordBytes !== 0)
		cursor.fail(`its ${bytes.length} bytes are not an 8 KB header and whole 3-byte records`);
	const builder = new RelativePatternBuilder(Math.max(1024, length / recordBytes + 2));
	const last = bytes.length - recordBytes;
	for (let at = recordsOffset; at <= last; at += recordBytes) {
		const flags = bytes[at + 2];
		const action = flags & actionMask;
		if (action === endAction) {
			if (at !== last) cursor.fail(`the end record at byte ${at} is not the last`);
			if (bytes[at] !== 0 || bytes[at + 1] !== 0) cursor.fail('the end record moves the needle');
			break;
		}
		if (at === last) cursor.fail('the last record is not the end record');
		if (!signsFit(flags))
			cursor.fail(`the record at byte ${at} has sign flags 0x${flags.toString(16)}`);
		const dx = flags & xLeft ? -bytes[at] : bytes[at];
		const dy = flags & yDown ? bytes[at + 1] : -bytes[at + 1];
		if (action === stitchAction) builder.stitch(dx, dy);
		else if (action === jumpAction) builder.jump(dx, dy);
		else if (action === colourChangeAction) {
			builder.colourChange();
			builder.jump(dx, dy);
		} else cursor.fail(`the record at byte ${at} has action ${action}, which INB lacks`);
	}
	return builder.finish();
}
