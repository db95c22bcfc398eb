/** Reads Janome SEW, strictly: it has no magic, so a file is SEW only where every part fits. */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { jefThreadChart } from '../threads/jef-threads';
import { ByteCursor, signed8 } from './binary-io';

/**
 * The header starts with a 16-bit colour count and one 16-bit Janome chart code per colour block; the
 * records start at a fixed offset: a stitch is two signed bytes (dx, dy with y up), and 0x80 leads a
 * 4-byte control: 0x01 colour change, 0x02 or 0x04 jump (with its move), then 0x80 0x10 ends the design.
 */
const stitchesOffset = 0x1d78;
const lastChartCode = 78;
const control = 0x80;
const colourChangeCode = 0x01;
const jumpCodes = new Set([0x02, 0x04]);
const endCode = 0x10;
/** Zero bytes a writer pads the file with after the end code (Star.SEW has 16, others 80). */
const mostPaddingBytes = 256;

/** The chart codes of the header, or a reason the header is not SEW's. */
function chartCodes(bytes: Uint8Array): number[] | string {
	if (bytes.length < stitchesOffset + 2)
		return `it has ${bytes.length} bytes, fewer than SEW's header`;
	const count = bytes[0] | (bytes[1] << 8);
	if (count === 0 || 2 + 2 * count > stitchesOffset) return `its header names ${count} colours`;
	const codes: number[] = [];
	for (let i = 0; i < count; i++) {
		const code = bytes[2 + 2 * i] | (bytes[3 + 2 * i] << 8);
		if (code > lastChartCode) return `colour ${i + 1} has code ${code}, which Janome's chart lacks`;
		codes.push(code);
	}
	return codes;
}

export function looksLikeSew(bytes: Uint8Array): boolean {
	return typeof chartCodes(bytes) !== 'string';
}

export function readSew(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'SEW');
	const codes = chartCodes(bytes);
	if (typeof codes === 'string') cursor.fail(codes);
	const end = bytes.length;
	const builder = new RelativePatternBuilder(Math.max(1024, ((end - stitchesOffset) >> 1) + 2));
	let blocks = 1;
	let at = stitchesOffset;
	for (;;) {
		if (at + 2 > end) cursor.fail('the records end without the end code');
		const first = bytes[at];
		const second = bytes[at + 1];
		if (first !== control) {
			builder.stitch(signed8(first), -signed8(second));
			at += 2;
			continue;
		}
		if (second === endCode) break;
		if (at + 4 > end) cursor.fail(`a control is cut off at byte ${at}`);
		const dx = signed8(bytes[at + 2]);
		const dy = -signed8(bytes[at + 3]);
		if (second === colourChangeCode) {
			builder.colourChange();
			blocks++;
		} else if (!jumpCodes.has(second)) {
			cursor.fail(`control code 0x${second.toString(16)} at byte ${at} is not one SEW has`);
		}
		builder.jump(dx, dy);
		at += 4;
	}
	at += 2;
	if (end - at > mostPaddingBytes) cursor.fail(`${end - at} bytes follow the end code`);
	for (; at < end; at++)
		if (bytes[at] !== 0) cursor.fail(`data follows the end code at byte ${at}`);
	if (blocks > codes.length)
		cursor.fail(`it has ${blocks} colour blocks, but its header names ${codes.length} colours`);
	const pattern = builder.finish();
	pattern.threads = codes.map((code) => jefThreadChart.threadForCode(code));
	return pattern;
}
