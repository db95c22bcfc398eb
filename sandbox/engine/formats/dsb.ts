/**
 * Barudan DSB: a Tajima-style 512-byte text header (as DST's), then Barudan's 3-byte records as U01
 * has them: [control, |dy|, |dx|], the control's 0x40 pointing dy down and 0x20 dx left, its low five
 * bits saying stitch (0), jump (1), trim (7), stop (8), needle 1-15 (9-23) or end (24).
 */
import {
	checkTajimaEnd,
	expectTajimaHeader,
	hasTajimaHeader,
	hasTextHeaderTail,
	headerSize,
	headerThreads,
} from './dstReader';
import type { FormatModule } from './format';
import { recordsBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import {
	commandMask,
	decodeBarudanRecords,
	endCode,
	machinePostfix,
	recordFlag,
} from './u01Reader';

function readDsb(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'DSB');
	expectTajimaHeader(bytes, 'Barudan DSB');
	const endAt = decodeBarudanRecords(bytes, headerSize, builder);
	const pattern = builder.finish();
	checkTajimaEnd(bytes, pattern, endAt, 'DSB', 'end code');
	pattern.threads = headerThreads(bytes);
	return pattern;
}

/**
 * The Tajima header (text past its fields), then Barudan records (control byte first, flag set, known
 * command) up to the end code.
 */
function looksLikeDsb(bytes: Uint8Array): boolean {
	if (!hasTajimaHeader(bytes) || !hasTextHeaderTail(bytes) || bytes.length < headerSize + 3)
		return false;
	const last = Math.min(bytes.length, headerSize + 3 * 4096);
	for (let offset = headerSize; offset + 3 <= last; offset += 3) {
		const control = bytes[offset];
		if (control === machinePostfix && offset > headerSize) return true;
		if ((control & recordFlag) === 0 || (control & commandMask) > endCode) return false;
		if ((control & commandMask) === endCode) return true;
	}
	return true;
}

export const dsbFormat: FormatModule = {
	info: {
		format: 'dsb',
		label: 'Barudan DSB',
		extension: 'dsb',
		mimeType: 'application/x-dsb',
		readable: true,
		writable: false,
		warning:
			'DSB carries no thread colours (unless its header lists some, as extended DST headers ' +
			'do): each colour block is a needle change to be threaded at the machine. Read only.',
	},
	detect: looksLikeDsb,
	// The labelled Tajima header, and records that DST's check refuses (its flag bits sit in the last byte).
	detectionStrength: 3,
	read: readDsb,
	// DSB names no hoop, and Barudan's machines take frames of many sizes.
	largestHoop: null,
};
