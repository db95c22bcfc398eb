/**
 * Brother PHB: "#PHB" and a version, a label, the PEC chart codes of the colour blocks, preview icons,
 * then a chain of length-prefixed sections ending in PEC stitch records (pec-wrapper-reader.ts).
 */
import type { FormatModule } from './format';
import { looksLikePecWrapper, readPecWrapper, type PecWrapperLayout } from './pecWrapperReader';

/** Offsets as pyembroidery's PhbReader follows them, confirmed on Embroidermodder's Star.phb. */
const phbLayout: PecWrapperLayout = {
	label: 'PHB',
	signature: '#PHB',
	colourCountOffset: 0x71,
	sectionPointerOffset: 0x54,
	stitchHeaderBytes: 21,
	sizeBeforeStitches: 12,
};

export const phbFormat: FormatModule = {
	info: {
		format: 'phb',
		label: 'Brother PHB',
		extension: 'phb',
		mimeType: 'application/x-phb',
		readable: true,
		writable: false,
		warning:
			"Read only. Thread colours are codes of Brother's 64-colour PEC chart (exact shades and thread " +
			'names are not in the file); a repeated colour is read as a stop.',
	},
	detect: (bytes) => looksLikePecWrapper(bytes, phbLayout),
	detectionStrength: 3,
	read: (bytes) => readPecWrapper(bytes, phbLayout),
	// Read only: no design is written as PHB, so no hoop is checked for it.
	largestHoop: null,
};
