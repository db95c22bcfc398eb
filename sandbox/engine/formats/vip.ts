/**
 * Husqvarna Viking / Pfaff VIP: HUS's header, stitch commands and compression, with each colour kept as
 * an RGB value (lightly encrypted) instead of a chart place.
 */
import type { FormatModule } from './format';
import { looksLikeVip, readVip } from './vipReader';

export const vipFormat: FormatModule = {
	info: {
		format: 'vip',
		label: 'Husqvarna Viking VIP',
		extension: 'vip',
		mimeType: 'application/x-vip',
		readable: true,
		writable: false,
		warning:
			'Read only. VIP keeps each colour as a plain RGB value, without thread names or catalogue numbers.',
	},
	detect: looksLikeVip,
	detectionStrength: 3,
	read: readVip,
	// VIP names no hoop, and the machines that sew it take hoops of several sizes: no common limit is
	// known, so no hoop warning.
	largestHoop: null,
};
