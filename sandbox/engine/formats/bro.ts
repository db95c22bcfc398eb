/**
 * Bits & Volts BRO: a 256-byte header (name, record count, extents), then 2-byte stitches (signed dx, dy;
 * y pointing up) and controls led by 0x80 (bro-reader.ts). Its colours live in a separate file.
 */
import { looksLikeBro, readBro } from './broReader';
import type { FormatModule } from './format';

export const broFormat: FormatModule = {
	info: {
		format: 'bro',
		label: 'Bits & Volts BRO',
		extension: 'bro',
		mimeType: 'application/x-bro',
		readable: true,
		writable: false,
		warning:
			'Read only. BRO keeps its thread colours in a separate file, so colours are not read: each colour ' +
			'block gets a stand-in colour. BRO has no magic; the file is recognised by its whole structure.',
	},
	detect: looksLikeBro,
	/** No magic, but a stitch count and extents in the header that the records must match. */
	detectionStrength: 2,
	read: readBro,
	// Read only: no design is written as BRO, so no hoop is checked for it.
	largestHoop: null,
};
