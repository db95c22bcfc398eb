/** Reads Bits & Volts BRO, strictly: it has no magic, so a file is BRO only where every part fits. */
import { boundsOf, Command, type Pattern } from '../pattern';
import { RelativePatternBuilder } from '../normalise';
import { ByteCursor, signed8 } from './binaryIo';

/**
 * The header's fields (the rest is a name, extents and zeros): the number of records, then the design's
 * height and width in 0.1 mm. Records follow at 256: a stitch is two signed bytes (dx, dy with y up);
 * 0x80 0x01 leads a 7-byte control: a code, then a 16-bit dx and dy. Some writers end with the control
 * code 0x7e, others with the two bytes 0x80 0x02 and a few bytes after them.
 */
const headerSize = 0x100;
const recordCountOffset = 0x0c;
const heightOffset = 0x10;
const widthOffset = 0x12;
const lead = 0x80;
const controlFlag = 0x01;
const endFlag = 0x02;
const controlBytes = 7;
/** Codes: 0x00 the move to the start, 0x02 stop, 0x03 trim, 0x7e end, 0xe0-0xef a needle change. */
const startCode = 0x00;
const stopCode = 0x02;
const trimCode = 0x03;
const endCode = 0x7e;
const firstNeedle = 0xe0;
const lastNeedle = 0xef;
/** Bytes a writer leaves after 0x80 0x02 (Star.BRO has six). */
const mostTrailingBytes = 8;
/** The extents the header gives may differ from the stitches' by rounding. */
const extentTolerance = 2;
const sewn: readonly Command[] = [Command.Stitch];

export function looksLikeBro(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize + 2) return false;
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return view.getUint32(recordCountOffset, true) * 2 <= bytes.length - headerSize;
}

export function readBro(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'BRO');
	if (bytes.length < headerSize + 2)
		cursor.fail(`it has ${bytes.length} bytes, fewer than the 256-byte header and an end record`);
	cursor.seek(recordCountOffset);
	const declared = cursor.u32le();
	if (declared * 2 > bytes.length - headerSize)
		cursor.fail(`its header claims ${declared} records, more than its ${bytes.length} bytes hold`);
	cursor.seek(heightOffset);
	const height = cursor.u16le();
	cursor.seek(widthOffset);
	const width = cursor.u16le();

	const builder = new RelativePatternBuilder(Math.max(1024, declared + 16));
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const end = bytes.length;
	let records = 0;
	let at = headerSize;
	for (;;) {
		if (at + 2 > end) cursor.fail('the records end without an end control');
		const first = bytes[at];
		if (first !== lead) {
			builder.stitch(signed8(first), -signed8(bytes[at + 1]));
			records++;
			at += 2;
			continue;
		}
		const flag = bytes[at + 1];
		if (flag === endFlag) {
			at += 2;
			if (end - at > mostTrailingBytes) cursor.fail(`${end - at} bytes follow the end control`);
			break;
		}
		if (flag !== controlFlag)
			cursor.fail(`the control at byte ${at} has flag 0x${flag.toString(16)}`);
		if (at + controlBytes > end) cursor.fail(`a control is cut off at byte ${at}`);
		const code = bytes[at + 2];
		const dx = view.getInt16(at + 3, true);
		const dy = -view.getInt16(at + 5, true);
		records++;
		at += controlBytes;
		if (code === endCode) {
			if (at !== end) cursor.fail(`${end - at} bytes follow the end control`);
			break;
		}
		const needle = code >= firstNeedle && code <= lastNeedle;
		if (code === trimCode) builder.trim();
		else if (needle) builder.colourChange();
		else if (code !== startCode && code !== stopCode)
			cursor.fail(
				`control code 0x${code.toString(16)} at byte ${at - controlBytes} is not one BRO has`,
			);
		builder.jump(dx, dy);
		if (code === stopCode) builder.stop();
	}
	if (records !== declared)
		cursor.fail(`its header counts ${declared} records, but it holds ${records}`);
	const pattern = builder.finish();
	const bounds = boundsOf(pattern, sewn) ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 };
	if (
		Math.abs(bounds.maxX - bounds.minX - width) > extentTolerance ||
		Math.abs(bounds.maxY - bounds.minY - height) > extentTolerance
	)
		cursor.fail(
			`its header gives extents of ${width} x ${height}, but its stitches span ` +
				`${bounds.maxX - bounds.minX} x ${bounds.maxY - bounds.minY}`,
		);
	return pattern;
}
