/** Reads Barudan U01: 3-byte records after a 256-byte header, needle changes as colour changes. */
import { UnreadableSourceError } from '../errors';
import { recordsBuilder, type RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';

export const headerSize = 0x100;
export const maxStep = 127;
export const recordFlag = 0x80;
export const downFlag = 0x40;
export const leftFlag = 0x20;
export const commandMask = 0x1f;
export const stitchCode = 0x00;
export const jumpCode = 0x01;
export const trimCode = 0x07;
export const stopCode = 0x08;
export const firstNeedleCode = 0x09;
const lastNeedleCode = 0x17;
export const endCode = 0x18;
/** Some machines append their own data after this control byte. */
export const machinePostfix = 0x2b;
export const needles = lastNeedleCode - firstNeedleCode + 1;

export function readU01(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'U01');
	// U01 has no magic, so its reader must take the whole file (see FormatModule): no end, no U01.
	const endAt = decodeBarudanRecords(bytes, headerSize, builder);
	if (endAt + 3 > bytes.length)
		throw new UnreadableSourceError('The Barudan records end without their end code.');
	const after = bytes.length - endAt - 3;
	if (bytes[endAt] !== machinePostfix && after > 1 && bytes[endAt + 3] !== machinePostfix)
		throw new UnreadableSourceError(
			`The file is not U01: ${after} bytes follow its end code, where a U01 file ends.`,
		);
	const hidden = bytes[endAt] === machinePostfix ? recordsUpToEnd(bytes, endAt + 3) : 0;
	if (hidden > mostRecordsAfterPostfix)
		throw new UnreadableSourceError(
			`The U01 file is damaged: its records stop at a machine postfix (0x2b) at byte ${endAt}, but ` +
				`${hidden} more Barudan records follow it up to an end code: the rest of a design, not a ` +
				"machine's data.",
		);
	return builder.finish();
}

/** Records after a machine postfix that may still read as Barudan records ending in the end code. */
const mostRecordsAfterPostfix = 16;

/** How many whole Barudan records from `start` lead to an end code, or 0 when they do not. */
function recordsUpToEnd(bytes: Uint8Array, start: number): number {
	for (let offset = start; offset + 3 <= bytes.length; offset += 3) {
		const controlByte = bytes[offset];
		if ((controlByte & recordFlag) === 0 || (controlByte & commandMask) > endCode) return 0;
		if ((controlByte & commandMask) === endCode) return (offset - start) / 3 + 1;
	}
	return 0;
}

/** How records that stop at `endAt` without their end record end, for the warning. */
export function endingOf(bytes: Uint8Array, endAt: number, endRecord: string): string {
	return endAt < bytes.length
		? `in the middle of a record, without its ${endRecord}`
		: `without its ${endRecord}`;
}

/**
 * Decodes Barudan's 3-byte records from `start` into `builder` until the end code or the machine's
 * postfix, throwing at a record that is not Barudan's: U01 after its header, DSB after its Tajima-style
 * one. Returns the offset of the end code's record (or the postfix), or of the first byte no whole record
 * covers when the records stop without either.
 */
export function decodeBarudanRecords(
	bytes: Uint8Array,
	start: number,
	builder: RelativePatternBuilder,
): number {
	let sewn = false;
	let needleChosen = false;
	for (let offset = start; ; offset += 3) {
		if (offset + 3 > bytes.length) return offset;
		const controlByte = bytes[offset];
		if (controlByte === machinePostfix) return offset;
		const code = controlByte & commandMask;
		if ((controlByte & recordFlag) === 0 || code > endCode)
			throw new UnreadableSourceError(
				`The file is not Barudan records: record ${(offset - start) / 3 + 1} starts with ` +
					`0x${controlByte.toString(16)}, not a Barudan control byte.`,
			);
		const dy = controlByte & downFlag ? bytes[offset + 1] : -bytes[offset + 1];
		const dx = controlByte & leftFlag ? -bytes[offset + 2] : bytes[offset + 2];
		if (code === endCode) return offset;
		switch (code) {
			case stitchCode:
			case 0x02:
			case 0x04:
				// 0x02 / 0x04 only add a speed change, which the pattern does not model.
				builder.stitch(dx, dy);
				sewn = true;
				break;
			case jumpCode:
			case 0x03:
			case 0x05:
				builder.jump(dx, dy);
				break;
			case 0x06:
			case trimCode:
				builder.trim();
				builder.jump(dx, dy);
				break;
			case stopCode:
				builder.jump(dx, dy);
				builder.stop();
				break;
			default:
				builder.jump(dx, dy);
				if (code >= firstNeedleCode && code <= lastNeedleCode) {
					// The first needle chosen before anything is sewn sets up the machine; every later one
					// changes colour, even one before the first stitch (a design that starts with a change).
					if (sewn || needleChosen) builder.colourChange();
					needleChosen = true;
				}
				break;
		}
	}
}

/** Every record up to the end code carries the record flag and a known command. */
export function looksLikeU01(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize + 3) return false;
	const last = Math.min(bytes.length, headerSize + 3 * 4096);
	let records = 0;
	for (let offset = headerSize; offset + 3 <= last; offset += 3) {
		const controlByte = bytes[offset];
		if (records > 0 && controlByte === machinePostfix) return true;
		if ((controlByte & recordFlag) === 0 || (controlByte & commandMask) > endCode) return false;
		records++;
		if ((controlByte & commandMask) === endCode) return true;
	}
	return records > 0 && (last < bytes.length || (bytes.length - headerSize) % 3 === 0);
}
