/**
 * Janome SEW: a fixed 0x1D78-byte header led by the colour blocks' Janome chart codes, then JEF-like
 * records (sew-reader.ts). It has no magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { looksLikeSew, readSew } from './sewReader';

export const sewFormat: FormatModule = {
	info: {
		format: 'sew',
		label: 'Janome SEW',
		extension: 'sew',
		mimeType: 'application/x-sew',
		readable: true,
		writable: false,
		warning:
			"Read only. Thread colours are codes of Janome's 78-colour chart (exact shades are not in the file); " +
			'SEW has no trim code, so trims are not marked. SEW has no magic: the file is recognised by its whole ' +
			'structure.',
	},
	detect: looksLikeSew,
	/** No magic, but chart codes in the header and records that must run to an end code. */
	detectionStrength: 2,
	read: readSew,
	// Read only: no design is written as SEW, so no hoop is checked for it.
	largestHoop: null,
};
