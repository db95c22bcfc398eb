/**
 * Brother PEC: the "#PEC0001" signature followed directly by a PEC block, as card readers and older machines
 * take it. The PEC block (pec-reader.ts, pec-writer.ts) is also the stitch part of every PES file.
 */
import type { FormatModule, HoopLimit } from './format';
import { looksLikePec, readPec } from './pec-reader';
import { writePec } from './pec-writer';

/**
 * The largest hoop of a PES v1 header, which names 100 x 100 or 130 x 180 mm only (pyembroidery's PesWriter
 * writes the same two); bigger Brother hoops need a later PES version than the one written here. A bare PEC
 * file names no hoop; it is the same stitch block Brother machines read, so it is held to the same hoop.
 */
export const pesV1LargestHoop: HoopLimit = {
	widthMm: 130,
	heightMm: 180,
	description: 'the 130 x 180 mm hoop, the largest a PES v1 file declares',
};

export const pecFormat: FormatModule = {
	info: {
		format: 'pec',
		label: 'Brother PEC',
		extension: 'pec',
		mimeType: 'application/x-pec',
		readable: true,
		writable: true,
		warning:
			"Thread colours are snapped to Brother's 64-colour PEC chart (names and exact shades are lost); " +
			'stops are stored as a repeated colour.',
	},
	detect: looksLikePec,
	detectionStrength: 3,
	read: readPec,
	write: writePec,
	largestHoop: pesV1LargestHoop,
};
