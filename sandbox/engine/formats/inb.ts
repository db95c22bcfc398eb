/**
 * Inbro INB: an 8 KB header, then 3-byte records [|dx|, |dy|, flags] (inb-reader.ts). It has no magic, so
 * it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { looksLikeInb, readInb } from './inbReader';

export const inbFormat: FormatModule = {
	info: {
		format: 'inb',
		label: 'Inbro INB',
		extension: 'inb',
		mimeType: 'application/x-inb',
		readable: true,
		writable: false,
		warning:
			'Read only. INB carries no thread colours: each colour block gets a stand-in colour. INB has no ' +
			'magic: the file is recognised by its whole structure.',
	},
	detect: looksLikeInb,
	/** No magic, but every record carries exactly one of each pair of sign flags. */
	detectionStrength: 2,
	read: readInb,
	// Read only: no design is written as INB, so no hoop is checked for it.
	largestHoop: null,
};
