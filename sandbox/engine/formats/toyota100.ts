/**
 * Toyota 100: no header, 4-byte records [code, 0, x, y], the moves in sign and magnitude (0x80 the
 * sign, y pointing up): code 0x61 stitches, 0x01 and 0x03 move, 0x04 changes colour, 0x1F ends.
 * Without a header, a file is 100 only when every record is one of these and the end record is its last.
 */
import { UnreadableSourceError } from '../errors';
import { wholeRecordsBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import type { FormatModule } from './format';

const stitchCode = 0x61;
const moveCodes = [0x01, 0x03];
const colourChangeCode = 0x04;
const endCode = 0x1f;
const knownCodes = new Set([stitchCode, ...moveCodes, colourChangeCode, endCode]);

/** A sign-and-magnitude byte (0x80 the sign; 0x80 itself is zero). */
function signMagnitude(byte: number): number {
	return byte & 0x80 ? -(byte & 0x7f) : byte;
}

function damaged(problem: string): UnreadableSourceError {
	return new UnreadableSourceError(`The file is not a Toyota 100 file: ${problem}.`);
}

function readToyota100(bytes: Uint8Array): Pattern {
	const builder = wholeRecordsBuilder(bytes, 4, 'Toyota 100');
	const last = bytes.length - 4;
	for (let offset = 0; offset <= last; offset += 4) {
		const code = bytes[offset];
		if (!knownCodes.has(code) || bytes[offset + 1] !== 0)
			throw damaged(
				`record ${offset / 4 + 1} starts ${code} ${bytes[offset + 1]}, which 100 does not use`,
			);
		const dx = signMagnitude(bytes[offset + 2]);
		const dy = -signMagnitude(bytes[offset + 3]);
		if (code === endCode) {
			if (offset !== last)
				throw damaged(`its end record (record ${offset / 4 + 1}) is not its last`);
			builder.jump(dx, dy);
		} else if (code === stitchCode) {
			builder.stitch(dx, dy);
		} else if (code === colourChangeCode) {
			builder.jump(dx, dy);
			builder.colourChange();
		} else {
			builder.jump(dx, dy);
		}
	}
	if (bytes[last] !== endCode) throw damaged('its last record is not the end record');
	return builder.finish();
}

/** The cheap part of the check: whole records, the end record last, the first records' codes known. */
function looksLikeToyota100(bytes: Uint8Array): boolean {
	if (bytes.length < 4 || bytes.length % 4 !== 0 || bytes[bytes.length - 4] !== endCode)
		return false;
	const last = Math.min(bytes.length - 4, 4 * 4096);
	for (let offset = 0; offset < last; offset += 4) {
		const code = bytes[offset];
		if (code === endCode || !knownCodes.has(code) || bytes[offset + 1] !== 0) return false;
	}
	return true;
}

export const toyota100Format: FormatModule = {
	info: {
		format: '100',
		label: 'Toyota 100',
		extension: '100',
		mimeType: 'application/x-toyota-100',
		readable: true,
		writable: false,
		warning:
			'100 carries no thread colours, no trims and no header: colours are lost (Toyota keeps ' +
			'them in a separate file), and the file is recognised by its records only. Read only.',
	},
	detect: looksLikeToyota100,
	// No header: a strict record structure, which the reader checks over the whole file.
	detectionStrength: 2,
	read: readToyota100,
	// 100 names no hoop, and Toyota's machines take frames of many sizes.
	largestHoop: null,
};
