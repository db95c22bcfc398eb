/**
 * Husqvarna Viking SHV: Viking's licence text as a labelled header, a preview bitmap, chart codes and
 * stitch counts per colour block, then 2-byte stitch records (shv-reader.ts).
 */
import type { FormatModule } from './format';
import { looksLikeShv, readShv } from './shvReader';

export const shvFormat: FormatModule = {
	info: {
		format: 'shv',
		label: 'Husqvarna Viking SHV',
		extension: 'shv',
		mimeType: 'application/x-shv',
		readable: true,
		writable: false,
		warning:
			"Read only. Thread colours are codes of Husqvarna Viking's SHV chart (exact shades are not in the " +
			'file), and SHV has no trim code, so trims are not marked.',
	},
	detect: looksLikeShv,
	/** Every SHV file opens with the same licence text. */
	detectionStrength: 3,
	read: readShv,
	// Read only: no design is written as SHV, so no hoop is checked for it.
	largestHoop: null,
};
