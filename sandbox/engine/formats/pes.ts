/** Brother PES: a PE-Design header ("#PES" + 4-digit version, PEC offset) followed by the PEC block. */
import type { FormatModule } from './format';
import { pesLargestHoop } from './pec';
import { looksLikePes, readPes } from './pesReader';
import { writePes } from './pesWriter';

export const pesFormat: FormatModule = {
	info: {
		format: 'pes',
		label: 'Brother PES',
		extension: 'pes',
		mimeType: 'application/x-pes',
		readable: true,
		writable: true,
		warning:
			"Written as PES version 6: PE-Design shows each colour block's thread exactly (brand, code, name, " +
			'colour) from the header, while Brother machines sew the PEC block, whose colours are snapped to ' +
			"Brother's 64-colour chart; the header declares at most a 130 x 180 mm hoop. Reads versions 1 to " +
			'10; PE-Design objects beyond the stitches are ignored.',
	},
	detect: looksLikePes,
	detectionStrength: 3,
	read: readPes,
	write: writePes,
	largestHoop: pesLargestHoop,
};
