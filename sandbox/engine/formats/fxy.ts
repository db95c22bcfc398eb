/**
 * Fortron FXY: a 256-byte header this service does not interpret, then ZSK's 3-byte records as DSZ
 * holds them ([|dy|, |dx|, control], ending with the end code; pyembroidery and libembroidery
 * describe the same layout). Without a header to recognise, a file is FXY only when every record is a
 * ZSK record and the end record is its last (a DOS end-of-file mark may follow).
 */
import { UnreadableSourceError } from '../errors';
import { recordsBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { decodeZskRecords, zskRecordsFit } from './dsz';
import type { FormatModule } from './format';

const headerSize = 0x100;
const endOfFile = 0x1a;

/** The bytes after the records: none, or the end-of-file mark. */
function onlyEndOfFileAfter(bytes: Uint8Array, end: number): boolean {
	return end === bytes.length || (end === bytes.length - 1 && bytes[end] === endOfFile);
}

function readFxy(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'FXY');
	const endAt = decodeZskRecords(bytes, headerSize, builder, 'FXY');
	const end = endAt + 3;
	if (end > bytes.length)
		throw new UnreadableSourceError(
			'The file is not a Fortron FXY file: its records have no end record.',
		);
	if (!onlyEndOfFileAfter(bytes, end))
		throw new UnreadableSourceError(
			`The file is not a Fortron FXY file: ${bytes.length - end} bytes follow its end record.`,
		);
	return builder.finish();
}

export const fxyFormat: FormatModule = {
	info: {
		format: 'fxy',
		label: 'Fortron FXY',
		extension: 'fxy',
		mimeType: 'application/x-fxy',
		readable: true,
		writable: false,
		warning:
			'FXY carries no thread colours and its header is not read: colours are lost, and the file ' +
			'is recognised by its records only. Read only.',
	},
	detect: (bytes) => zskRecordsFit(bytes, headerSize),
	// The header is skipped unread: only the records' structure, which the reader checks to the end.
	detectionStrength: 1,
	read: readFxy,
	// FXY names no hoop.
	largestHoop: null,
};
