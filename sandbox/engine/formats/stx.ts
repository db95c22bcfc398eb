/**
 * Data Stitch STX: "STX" and a version, the offsets of a colour table, a second table and the stitches,
 * then Melco EXP's records to the end of the file (stx-reader.ts).
 */
import type { FormatModule } from './format';
import { looksLikeStx, readStx } from './stx-reader';

export const stxFormat: FormatModule = {
	info: {
		format: 'stx',
		label: 'Data Stitch STX',
		extension: 'stx',
		mimeType: 'application/x-stx',
		readable: true,
		writable: false,
		warning:
			"Read only. STX's colour table is a 16-colour screen palette whose link to the colour blocks is not " +
			'documented, so colours are not read: each colour block gets a stand-in colour.',
	},
	detect: looksLikeStx,
	detectionStrength: 3,
	read: readStx,
	// Read only: no design is written as STX, so no hoop is checked for it.
	largestHoop: null,
};
