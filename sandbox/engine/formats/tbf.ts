/**
 * Tajima TBF: a 1,536-byte labelled header (version, LA: label, the DST-like counts and extents, DO:
 * the needle of each colour block, DA: each needle's thread colour), then 3-byte records [dx, dy,
 * control] in two's complement with y pointing up: 0x80 stitch, 0x90 move (a move of nothing trims),
 * 0x81 needle change, 0x86 trim, 0x40 stop, 0x8F end.
 */
import type { FormatModule } from './format';
import { looksLikeTbf, readTbf } from './tbfReader';
import { writeTbf } from './tbfWriter';

export const tbfFormat: FormatModule = {
	info: {
		format: 'tbf',
		label: 'Tajima TBF',
		extension: 'tbf',
		mimeType: 'application/x-tbf',
		readable: true,
		writable: true,
		warning:
			"TBF keeps each colour block's thread as an RGB colour on a needle (up to 72 needles), " +
			'without thread names, brands or codes.',
	},
	detect: looksLikeTbf,
	// The labelled header: LA:, DO: and DA: at TBF's fixed offsets.
	detectionStrength: 3,
	read: readTbf,
	write: writeTbf,
	// TBF names no hoop, and Tajima's machines take frames of many sizes.
	largestHoop: null,
};
