/**
 * Brother PEC: the "#PEC0001" signature followed directly by a PEC block, as card readers and older machines
 * take it. The PEC block (pec-reader.ts, pec-writer.ts) is also the stitch part of every PES file.
 */
import type { FormatModule, HoopLimit } from './format';
import { looksLikePec, readPec } from './pecReader';
import { writePec } from './pecWriter';

/**
 * The largest hoop the PES header written here names: its hoop flag says 100 x 100 or 130 x 180 mm only
 * (pyembroidery's PesWriter writes the same two). A bare PEC file names no hoop; it is the same stitch block
 * Brother machines read, so it is held to the same hoop.
 */
export const pesLargestHoop: HoopLimit = {
	widthMm: 130,
	heightMm: 180,
	description: 'the 130 x 180 mm hoop, the largest the PES files written here declare',
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
	largestHoop: pesLargestHoop,
};
