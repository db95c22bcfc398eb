/** Reads Bits & Volts BRO, strictly: it has no magic, so a file is BRO only where every part fits. */
import { patternBounds, RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor, signed8 } from './binary-io';

/**
 * The header's fields (the rest is a name and zeros): the number of stitch records, then the design's
 * height and width in 0.1 mm. Records follow at 256: a stitch is two signed bytes (dx, dy with y up);
 * 0x80 leads a control of three bytes (0x80, a flag byte, the code), some with a 16-bit dx, dy after it.
 */
const headerSize = 0x100;
const stitchCountOffset = 0x0c;
const heightOffset = 0x10;
const widthOffset = 0x12;
const control = 0x80;
/** Codes: 0x00 nothing; 0x03 and 0x7e a move; 0xe1-0xef a needle change and a move; 0x02 and 0xe0 end. */
const noOperation = 0x00;
const moveCodes = new Set([0x03, 0x7e]);
const firstNeedle = 0xe1;
const lastNeedle = 0xef;
const endCodes = new Set([0x02, 0xe0]);
/** Bytes a writer leaves after the end control (Star.BRO has five). */
const mostTrailingBytes = 8;
/** The extents the header gives may differ from the records' by rounding. */
const extentTolerance = 2;

export function looksLikeBro(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize + 3) return false;
	const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
		stitchCountOffset,
		true,
	);
	return declared * 2 <= bytes.length - headerSize;
}

export function readBro(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'BRO');
	if (bytes.length < headerSize + 3)
		cursor.fail(`it has ${bytes.length} bytes, fewer than the 256-byte header and an end record`);
	cursor.seek(stitchCountOffset);
	const declared = cursor.u32le();
	if (declared * 2 > bytes.length - headerSize)
		cursor.fail(`its header claims ${declared} stitches, more than its ${bytes.length} bytes hold`);
	cursor.seek(heightOffset);
	const height = cursor.u16le();
	cursor.seek(widthOffset);
	const width = cursor.u16le();

	const builder = new RelativePatternBuilder(Math.max(1024, declared + 16));
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const end = bytes.length;
	let stitches = 0;
	let at = headerSize;
	for (;;) {
		if (at + 2 > end) cursor.fail('the records end without an end control');
		const first = bytes[at];
		if (first !== control) {
			builder.stitch(signed8(first), -signed8(bytes[at + 1]));
			stitches++;
			at += 2;
			continue;
		}
		if (at + 3 > end) cursor.fail(`a control is cut off at byte ${at}`);
		const code = bytes[at + 2];
		at += 3;
		if (code === noOperation) continue;
		if (endCodes.has(code)) break;
		const needle = code >= firstNeedle && code <= lastNeedle;
		if (!needle && !moveCodes.has(code))
			cursor.fail(`control code 0x${code.toString(16)} at byte ${at - 3} is not one BRO has`);
		if (at + 4 > end) cursor.fail(`a move is cut off at byte ${at}`);
		if (needle) builder.colourChange();
		builder.jump(view.getInt16(at, true), -view.getInt16(at + 2, true));
		at += 4;
	}
	if (end - at > mostTrailingBytes) cursor.fail(`${end - at} bytes follow the end control`);
	if (stitches !== declared)
		cursor.fail(`its header counts ${declared} stitches, but it holds ${stitches}`);
	const pattern = builder.finish();
	const bounds = patternBounds(pattern);
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
