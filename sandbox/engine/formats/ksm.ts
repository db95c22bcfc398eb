/**
 * Pfaff KSM: a 512-byte header, then 3-byte records of move sizes and a control byte with sign flags and
 * a code (ksm-reader.ts). It has no magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { looksLikeKsm, readKsm } from './ksmReader';

export const ksmFormat: FormatModule = {
	info: {
		format: 'ksm',
		label: 'Pfaff KSM',
		extension: 'ksm',
		mimeType: 'application/x-ksm',
		readable: true,
		writable: false,
		warning:
			'Read only. KSM carries no thread colours, only needle changes: each colour block gets a stand-in ' +
			'colour. KSM has no magic: the file is recognised by its whole structure.',
	},
	detect: looksLikeKsm,
	/** No magic, but every control byte carries 0x80 and a known code, and the last one is the end. */
	detectionStrength: 2,
	read: readKsm,
	// Read only: no design is written as KSM, so no hoop is checked for it.
	largestHoop: null,
};
