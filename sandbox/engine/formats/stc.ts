/**
 * Gunold STC: a 40-byte text header ("DESIGN:" name, "STITCHES:" count), then 3-byte records [dx, dy,
 * code] (stc-reader.ts). The labelled header is its magic.
 */
import type { FormatModule } from './format';
import { looksLikeStc, readStc } from './stcReader';

export const stcFormat: FormatModule = {
	info: {
		format: 'stc',
		label: 'Gunold STC',
		extension: 'stc',
		mimeType: 'application/x-stc',
		readable: true,
		writable: false,
		warning:
			'Read only. STC carries no thread colours, only needle numbers: each colour block gets a ' +
			'stand-in colour, and trims are not marked.',
	},
	detect: looksLikeStc,
	detectionStrength: 3,
	read: readStc,
	// Read only: no design is written as STC, so no hoop is checked for it.
	largestHoop: null,
};
