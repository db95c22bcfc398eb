/**
 * The record stream of Janome's SEW and JPX (JEF's records, read strictly): a stitch is two signed bytes
 * (dx, dy with y up), 0x80 leads a 4-byte control (0x01 colour change, 0x02 or 0x04 jump, each with a
 * move), and 0x80 0x10 ends the design, followed by nothing but a little zero padding.
 */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor, signed8 } from './binaryIo';

const control = 0x80;
const colourChangeCode = 0x01;
const jumpCodes = new Set([0x02, 0x04]);
const endCode = 0x10;
/** Zero bytes writers pad a file with after the end code (Star.SEW has 16, others 80). */
const mostPaddingBytes = 256;

/** The design the records from `start` hold, and how many colour blocks it has; throws where they do not fit. */
export function readJanomeRecords(
	bytes: Uint8Array,
	start: number,
	formatLabel: string,
): { pattern: Pattern; blocks: number } {
	const cursor: ByteCursor = new ByteCursor(bytes, formatLabel);
	const end = bytes.length;
	const builder = new RelativePatternBuilder(Math.max(1024, ((end - start) >> 1) + 2));
	let blocks = 1;
	let at = start;
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
			cursor.fail(
				`control code 0x${second.toString(16)} at byte ${at} is not one ${formatLabel} has`,
			);
		}
		builder.jump(dx, dy);
		at += 4;
	}
	at += 2;
	if (end - at > mostPaddingBytes) cursor.fail(`${end - at} bytes follow the end code`);
	for (; at < end; at++)
		if (bytes[at] !== 0) cursor.fail(`data follows the end code at byte ${at}`);
	return { pattern: builder.finish(), blocks };
}
