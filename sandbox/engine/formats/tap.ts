/**
 * Happy TAP: Tajima's 3-byte records exactly as DST holds them (balanced ternary moves, jump and
 * colour-change flags, the END record), with no header at all. Without a header to recognise, a file
 * is TAP only when every record carries Tajima's two always-set bits and the END record is its last, or
 * followed by zero bytes only (the real TAP files of Embroidermodder's samples end 00 00 F3 and six zeros).
 */
import { UnreadableSourceError } from '../errors';
import { normaliseForWriter, wholeRecordsBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { decodeTajimaRecords, endMask } from './dstReader';
import { encodeTajimaRecords, tajimaWriterOptions } from './dstWriter';
import type { FormatModule, WriteResult } from './format';

const alwaysSet = 0x03;

/** The length of `bytes` without the whole zero records that follow the END record. */
function withoutPadding(bytes: Uint8Array): number {
	let length = bytes.length;
	while (
		length >= 6 &&
		bytes[length - 1] === 0 &&
		bytes[length - 2] === 0 &&
		bytes[length - 3] === 0
	)
		length -= 3;
	return length;
}

/** Why `bytes` are not TAP records ending in one END record, or null when they are. */
function tapProblem(bytes: Uint8Array): string | null {
	if (bytes.length < 3 || bytes.length % 3 !== 0)
		return `its ${bytes.length} bytes are not a whole number of 3-byte records`;
	const last = withoutPadding(bytes) - 3;
	for (let offset = 0; offset < last; offset += 3) {
		const b2 = bytes[offset + 2];
		if ((b2 & alwaysSet) !== alwaysSet)
			return `record ${offset / 3 + 1} lacks Tajima's record bits`;
		if ((b2 & endMask) === endMask)
			return `its END record (record ${offset / 3 + 1}) is not its last`;
	}
	if ((bytes[last + 2] & endMask) !== endMask) return 'its last record is not the END record';
	return null;
}

function readTap(bytes: Uint8Array): Pattern {
	const problem = tapProblem(bytes);
	if (problem) throw new UnreadableSourceError(`The file is not a Happy TAP file: ${problem}.`);
	const builder = wholeRecordsBuilder(bytes, 3, 'Happy TAP');
	decodeTajimaRecords(bytes, 0, builder);
	return builder.finish();
}

/** The cheap part of the check: the whole-record length, the END record last, the first records' bits. */
function looksLikeTap(bytes: Uint8Array): boolean {
	if (bytes.length < 3 || bytes.length % 3 !== 0) return false;
	const length = withoutPadding(bytes);
	if ((bytes[length - 1] & endMask) !== endMask) return false;
	const last = Math.min(length - 3, 3 * 4096);
	for (let offset = 0; offset < last; offset += 3) {
		const b2 = bytes[offset + 2];
		if ((b2 & alwaysSet) !== alwaysSet || (b2 & endMask) === endMask) return false;
	}
	return true;
}

function writeTap(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, tajimaWriterOptions('TAP'));
	const out = new Uint8Array(pattern.length * 3);
	return { bytes: out.subarray(0, encodeTajimaRecords(pattern, out, 0)), warnings };
}

export const tapFormat: FormatModule = {
	info: {
		format: 'tap',
		label: 'Happy TAP',
		extension: 'tap',
		mimeType: 'application/x-tap',
		readable: true,
		writable: true,
		warning:
			'TAP carries no thread colours and no header: colours are lost, and the file is recognised ' +
			'by its records only. Trims are written as three jumps, as in DST; stops become colour changes.',
	},
	detect: looksLikeTap,
	// No header: a strict record structure, which the reader checks over the whole file.
	detectionStrength: 2,
	read: readTap,
	write: writeTap,
	// TAP names no hoop, and Happy's machines take frames of many sizes.
	largestHoop: null,
};
