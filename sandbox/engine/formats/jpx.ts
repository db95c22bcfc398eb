/**
 * Janome JPX: a JEF-like header (stitch offset, date, colour count, extents, chart codes), the threads of
 * each colour block with their exact shade and name, then JEF's records (jpx-reader.ts). It has no magic,
 * so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { looksLikeJpx, readJpx } from './jpxReader';

export const jpxFormat: FormatModule = {
	info: {
		format: 'jpx',
		label: 'Janome JPX',
		extension: 'jpx',
		mimeType: 'application/x-jpx',
		readable: true,
		writable: false,
		warning:
			'Read only. JPX has no trim code, so trims are not marked. JPX has no magic: the file is ' +
			'recognised by its whole structure.',
	},
	detect: looksLikeJpx,
	/** No magic, but a date, chart codes and a thread table that must end where the stitches start. */
	detectionStrength: 2,
	read: readJpx,
	// Read only: no design is written as JPX, so no hoop is checked for it.
	largestHoop: null,
};
