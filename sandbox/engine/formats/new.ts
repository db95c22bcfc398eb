/**
 * Ameco NEW: a 16-bit record count, then 3-byte records [|dx|, |dy|, flags] (new-reader.ts). It has no
 * magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { looksLikeNew, readNew } from './newReader';

export const newFormat: FormatModule = {
	info: {
		format: 'new',
		label: 'Ameco NEW',
		extension: 'new',
		mimeType: 'application/x-new',
		readable: true,
		writable: false,
		warning:
			'Read only. NEW carries no thread colours, only needle numbers: each colour block gets a ' +
			'stand-in colour. NEW has no magic: the file is recognised by its whole structure.',
	},
	detect: looksLikeNew,
	/** No magic, but a record count and a flag bit every record sets. */
	detectionStrength: 2,
	read: readNew,
	// Read only: no design is written as NEW, so no hoop is checked for it.
	largestHoop: null,
};
