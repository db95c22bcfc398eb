/**
 * DAT as Embroidermodder's Star.dat holds it (a Sunstar-style layout: the control byte last, not
 * first as Barudan's records have it): no header, 3-byte records [dy, -dx, control] in two's
 * complement with y pointing down; control 0x01 stitches, 0x00 moves, 0x08 trims, 0x09 changes
 * colour and 0x10 ends. Without a header, a file is DAT only when every record fits and the end
 * record is its last.
 */
import { UnreadableSourceError } from '../errors';
import { wholeRecordsBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { signed8 } from './binaryIo';
import type { FormatModule } from './format';

const moveCode = 0x00;
const stitchCode = 0x01;
const trimCode = 0x08;
const colourChangeCode = 0x09;
const endCode = 0x10;
const knownCodes = new Set([moveCode, stitchCode, trimCode, colourChangeCode, endCode]);
/** Records in a row that do not move: more is another file's zero padding read as records (Star.dat has 1). */
const mostRecordsInPlace = 16;

function damaged(problem: string): UnreadableSourceError {
	return new UnreadableSourceError(`The file is not a DAT file: ${problem}.`);
}

function readDat(bytes: Uint8Array): Pattern {
	const builder = wholeRecordsBuilder(bytes, 3, 'DAT');
	const last = bytes.length - 3;
	let inPlace = 0;
	for (let offset = 0; offset <= last; offset += 3) {
		const control = bytes[offset + 2];
		const dy = signed8(bytes[offset]);
		const dx = -signed8(bytes[offset + 1]);
		inPlace = dx === 0 && dy === 0 ? inPlace + 1 : 0;
		if (inPlace > mostRecordsInPlace)
			throw damaged(
				`more than ${mostRecordsInPlace} records in a row up to record ${offset / 3 + 1} do not move ` +
					"(another file's padding, not a design)",
			);
		if (control === stitchCode) {
			builder.stitch(dx, dy);
			continue;
		}
		if (!knownCodes.has(control))
			throw damaged(
				`record ${offset / 3 + 1} has the control 0x${control.toString(16)}, which DAT does not use`,
			);
		builder.jump(dx, dy);
		if (control === trimCode) builder.trim();
		else if (control === colourChangeCode) builder.colourChange();
		else if (control === endCode && offset !== last)
			throw damaged(`its end record (record ${offset / 3 + 1}) is not its last`);
	}
	if (bytes[last + 2] !== endCode) throw damaged('its last record is not the end record');
	return builder.finish();
}

/** The cheap part of the check: whole records, the end record last, the first records' controls known. */
function looksLikeDat(bytes: Uint8Array): boolean {
	if (bytes.length < 3 || bytes.length % 3 !== 0 || bytes[bytes.length - 1] !== endCode)
		return false;
	const last = Math.min(bytes.length - 3, 3 * 4096);
	for (let offset = 0; offset < last; offset += 3) {
		const control = bytes[offset + 2];
		if (control === endCode || !knownCodes.has(control)) return false;
	}
	return true;
}

export const datFormat: FormatModule = {
	info: {
		format: 'dat',
		label: 'Sunstar DAT',
		extension: 'dat',
		mimeType: 'application/x-dat',
		readable: true,
		writable: false,
		warning:
			'DAT carries no thread colours and no header: colours are lost, and the file is recognised ' +
			"by its records only. Read only, in the headerless layout with the control byte last; Barudan's " +
			'DAT (control byte first) is not read.',
	},
	detect: looksLikeDat,
	// No header: a strict record structure, which the reader checks over the whole file.
	detectionStrength: 2,
	read: readDat,
	// DAT names no hoop, and the machines that read it take frames of many sizes.
	largestHoop: null,
};
