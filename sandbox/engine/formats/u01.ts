/**
 * Barudan U01: a 256-byte header, then 3-byte records [control, |dy|, |dx|]. The control's
 * bit 0x40 makes dy point down, 0x20 makes dx negative, its low 5 bits say what happens:
 * 0 stitch, 1 jump, 2-5 speed changes, 6-7 trims, 8 stop, 9-23 needle 1-15, 24 end.
 */
import type { FormatModule } from './format';
import { looksLikeU01, readU01 } from './u01Reader';
import { writeU01 } from './u01Writer';

export const u01Format: FormatModule = {
	info: {
		format: 'u01',
		label: 'Barudan U01',
		extension: 'u01',
		mimeType: 'application/x-u01',
		readable: true,
		writable: true,
		warning:
			'U01 carries no thread colours: each colour block is assigned a needle (1 to 15, in ' +
			'turn) to be threaded at the machine.',
	},
	detect: looksLikeU01,
	detectionStrength: 2,
	read: readU01,
	write: writeU01,
	// U01 names no hoop (its header holds only the design's extents), and Barudan's machines take frames of
	// many sizes: no common limit is known, so no hoop warning.
	largestHoop: null,
};
