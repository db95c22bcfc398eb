/**
 * Brother PHC: the PHB layout with a shorter label field and a longer stitch header. pyembroidery and
 * libembroidery follow a pointer that leads outside Star.phc; these offsets are the ones its sections
 * declare (section lengths lead from one to the next, and the stitch section repeats the colour list).
 */
import type { FormatModule } from './format';
import { looksLikePecWrapper, readPecWrapper, type PecWrapperLayout } from './pec-wrapper-reader';

const phcLayout: PecWrapperLayout = {
	label: 'PHC',
	signature: '#PHC',
	colourCountOffset: 0x4d,
	sectionPointerOffset: 0x30,
	stitchHeaderBytes: 29,
};

export const phcFormat: FormatModule = {
	info: {
		format: 'phc',
		label: 'Brother PHC',
		extension: 'phc',
		mimeType: 'application/x-phc',
		readable: true,
		writable: false,
		warning:
			"Read only. Thread colours are codes of Brother's 64-colour PEC chart (exact shades and thread " +
			'names are not in the file); a repeated colour is read as a stop.',
	},
	detect: (bytes) => looksLikePecWrapper(bytes, phcLayout),
	detectionStrength: 3,
	read: (bytes) => readPecWrapper(bytes, phcLayout),
	// Read only: no design is written as PHC, so no hoop is checked for it.
	largestHoop: null,
};
