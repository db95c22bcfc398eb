/**
 * Pfaff Creative PCS: a short header (version, hoop code, up to 16 RGB colours, record count), then
 * 9-byte records of absolute fixed-point positions in 1/6 mm (pcs-reader.ts). It has no magic, so it
 * is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { looksLikePcs, readPcs } from './pcs-reader';

export const pcsFormat: FormatModule = {
	info: {
		format: 'pcs',
		label: 'Pfaff Creative PCS',
		extension: 'pcs',
		mimeType: 'application/x-pcs',
		readable: true,
		writable: false,
		warning:
			'Read only. PCS keeps at most 16 colours as plain RGB values, without thread names, and has no trim ' +
			'code, so trims are not marked. PCS has no magic: the file is recognised by its whole structure.',
	},
	detect: looksLikePcs,
	/** No magic, but a version byte, a hoop code, a colour list and records that must fill the file exactly. */
	detectionStrength: 2,
	read: readPcs,
	// Read only: no design is written as PCS, so no hoop is checked for it.
	largestHoop: null,
};
