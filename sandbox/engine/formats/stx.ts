/**
 * Data Stitch STX: "STX" and a version, the offsets of a palette, a colour list and the stitches, then
 * Melco EXP's records to the end of the file (stx-reader.ts).
 */
import type { FormatModule } from './format';
import { looksLikeStx, readStx } from './stxReader';

export const stxFormat: FormatModule = {
	info: {
		format: 'stx',
		label: 'Data Stitch STX',
		extension: 'stx',
		mimeType: 'application/x-stx',
		readable: true,
		writable: false,
		warning:
			"Read only. Thread colours come from STX's 16-colour palette (6 bits a channel): thread names and " +
			'catalogue numbers are not in the file.',
	},
	detect: looksLikeStx,
	detectionStrength: 3,
	read: readStx,
	// Read only: no design is written as STX, so no hoop is checked for it.
	largestHoop: null,
};
