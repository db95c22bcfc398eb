/**
 * Melco EXP: no header, 2-byte stitch records (signed dx, dy; y pointing up) and 4-byte
 * control records led by 0x80: 0x01 colour change, 0x02 / 0x04 jump, 0x80 trim.
 */
import { looksLikeExp, readExp } from './expReader';
import { writeExp } from './expWriter';
import type { FormatModule } from './format';

export const expFormat: FormatModule = {
	info: {
		format: 'exp',
		label: 'Melco EXP',
		extension: 'exp',
		mimeType: 'application/x-exp',
		readable: true,
		writable: true,
		warning:
			'EXP carries no thread colours and no header, so colours are lost and the file is ' +
			'recognised by its structure only. Stops are written as colour changes.',
	},
	detect: looksLikeExp,
	/** EXP has no header at all: its check only finds the records plausible. */
	detectionStrength: 1,
	read: readExp,
	write: writeExp,
	// EXP has no header at all, and Melco and Bernina machines that read it take hoops of many sizes: no
	// common limit is known, so no hoop warning.
	largestHoop: null,
};
