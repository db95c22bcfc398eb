/**
 * Eltac EXY: a 256-byte header (filler, then the design's extents), then Tajima DST's 3-byte records up to
 * the END record that ends the file (exy-reader.ts). It has no magic, so it is recognised by its whole
 * structure only.
 */
import { looksLikeExy, readExy } from './exyReader';
import type { FormatModule } from './format';

export const exyFormat: FormatModule = {
	info: {
		format: 'exy',
		label: 'Eltac EXY',
		extension: 'exy',
		mimeType: 'application/x-exy',
		readable: true,
		writable: false,
		warning:
			'Read only. EXY carries no thread colours: each colour block gets a stand-in colour. Trims are ' +
			'read from runs of three jumps, as in DST. EXY has no magic: the file is recognised by its whole ' +
			'structure.',
	},
	detect: looksLikeExy,
	/** No magic, but extents in the header and Tajima records that must end with the file. */
	detectionStrength: 2,
	read: readExy,
	// Read only: no design is written as EXY, so no hoop is checked for it.
	largestHoop: null,
};
