/**
 * Elna EMD: a 48-byte header this service does not interpret, then 2-byte stitch records (signed dx,
 * dy; y pointing up) and 0x80-led commands: 0x80 0x80 dx dy moves, 0x80 0x2A changes colour, 0x80
 * 0xAD and 0x80 0x90 trim, 0x80 0x7D marks the start, 0x80 0xFD ends (pyembroidery and libembroidery
 * describe the same layout). Without a header to recognise, a file is EMD only when every record is
 * one of these and the end command is its last.
 */
import { UnreadableSourceError } from '../errors';
import { recordsBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { signed8 } from './binaryIo';
import type { FormatModule } from './format';

const headerSize = 0x30;
const lead = 0x80;
const moveCode = 0x80;
const colourChangeCode = 0x2a;
const startCode = 0x7d;
const trimCodes = [0xad, 0x90];
const endCode = 0xfd;

function damaged(problem: string): UnreadableSourceError {
	return new UnreadableSourceError(`The file is not an Elna EMD file: ${problem}.`);
}

function readEmd(bytes: Uint8Array): Pattern {
	if (bytes.length < headerSize + 2 || bytes.length % 2 !== 0)
		throw damaged(`its ${bytes.length} bytes are not a 48-byte header and 2-byte records`);
	const builder = recordsBuilder(bytes, headerSize, 2, 'EMD');
	let offset = headerSize;
	for (; offset + 2 <= bytes.length; offset += 2) {
		const b0 = bytes[offset];
		const b1 = bytes[offset + 1];
		if (b0 !== lead) {
			builder.stitch(signed8(b0), -signed8(b1));
			continue;
		}
		if (b1 === endCode) break;
		if (b1 === moveCode) {
			if (offset + 4 > bytes.length) throw damaged('its last move is cut short');
			builder.jump(signed8(bytes[offset + 2]), -signed8(bytes[offset + 3]));
			offset += 2;
		} else if (b1 === colourChangeCode) builder.colourChange();
		else if (trimCodes.includes(b1)) builder.trim();
		else if (b1 !== startCode)
			throw damaged(`the command 0x80 0x${b1.toString(16)} at byte ${offset} is not one EMD uses`);
	}
	if (offset !== bytes.length - 2) throw damaged('its last record is not the end command');
	return builder.finish();
}

/** The cheap part of the check: even length past the header, and the end command last. */
function looksLikeEmd(bytes: Uint8Array): boolean {
	const length = bytes.length;
	return (
		length >= headerSize + 2 &&
		length % 2 === 0 &&
		bytes[length - 2] === lead &&
		bytes[length - 1] === endCode
	);
}

export const emdFormat: FormatModule = {
	info: {
		format: 'emd',
		label: 'Elna EMD',
		extension: 'emd',
		mimeType: 'application/x-emd',
		readable: true,
		writable: false,
		warning:
			'EMD carries no thread colours and its header is not read: colours are lost, and the file ' +
			'is recognised by its records only. Read only.',
	},
	detect: looksLikeEmd,
	// The header is skipped unread: only the records' structure, which the reader checks to the end.
	detectionStrength: 1,
	read: readEmd,
	// EMD names no hoop.
	largestHoop: null,
};
