/**
 * Tajima DST: a 512-byte text header, then 3-byte records holding a move of up to ±121
 * per axis in balanced ternary (y pointing up), plus jump / colour-change / end flags.
 * Machines trim when they meet a run of jumps, so a trim is written as three jumps.
 */
import { looksLikeDst, readDst } from './dstReader';
import { writeDst } from './dstWriter';
import type { FormatModule } from './format';

export const dstFormat: FormatModule = {
	info: {
		format: 'dst',
		label: 'Tajima DST',
		extension: 'dst',
		mimeType: 'application/x-dst',
		readable: true,
		writable: true,
		warning:
			'DST carries no thread colours that machines use: up to 29 colours (with names while ' +
			'room allows) are kept in the extended header, which most software ignores. Trims are ' +
			'written as three jumps, which Tajima-compatible machines treat as a trim (three or more ' +
			'jumps in a row read back as one); stops become colour changes.',
	},
	detect: looksLikeDst,
	detectionStrength: 3,
	read: readDst,
	write: writeDst,
	// DST names no hoop, and the Tajima-compatible machines that read it range from single heads to frames
	// of many sizes: no common limit is known, so no hoop warning.
	largestHoop: null,
};
