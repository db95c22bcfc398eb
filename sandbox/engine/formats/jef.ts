/** Janome JEF: a little-endian header with hoop code and 78-colour chart codes, then 2-byte relative stitches. */
import type { FormatModule } from './format';
import { looksLikeJef, readJef } from './jefReader';
import { largestHoop, writeJef } from './jefWriter';

export const jefFormat: FormatModule = {
	info: {
		format: 'jef',
		label: 'Janome JEF',
		extension: 'jef',
		mimeType: 'application/x-jef',
		readable: true,
		writable: true,
		warning:
			"Thread colours are snapped to Janome's 78-colour chart. JEF has no trim command: trims are written as three " +
			'zero-length jumps, and jumps longer than 3 mm read back as trimmed. Hoops named up to 200 x 200 mm.',
	},
	detect: looksLikeJef,
	detectionStrength: 2,
	read: readJef,
	write: writeJef,
	// The largest of the header's hoop codes (the `hoops` table of jef-writer.ts; pyembroidery's JefWriter
	// names the same five).
	largestHoop: {
		widthMm: largestHoop.width / 10,
		heightMm: largestHoop.height / 10,
		description: `the ${largestHoop.width / 10} x ${largestHoop.height / 10} mm hoop, the largest a JEF file names`,
	},
};
