/**
 * Brother PHC: the PHB layout with a shorter label field and a longer stitch header. pyembroidery and
 * libembroidery add the byte at 0x2b (the "." ending the copyright line most writers put there, a space in
 * Star.phc's label) to a 16-bit pointer, which leads outside Star.phc; the lengths the sections declare
 * lead to the stitches in every PHC seen (Star.phc and two files of another writer).
 */
import type { FormatModule } from './format';
import { looksLikePecWrapper, readPecWrapper, type PecWrapperLayout } from './pecWrapperReader';

const phcLayout: PecWrapperLayout = {
	label: 'PHC',
	signature: '#PHC',
	colourCountOffset: 0x4d,
	sectionPointerOffset: 0x30,
	stitchHeaderBytes: 29,
	sizeBeforeStitches: 20,
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
