/**
 * Husqvarna Viking HUS: a little-endian header with a magic, chart places for the colours, and three
 * compressed streams (commands, x moves, y moves) of one byte per stitch.
 */
import type { FormatModule } from './format';
import { looksLikeHus, readHus } from './husReader';

export const husFormat: FormatModule = {
	info: {
		format: 'hus',
		label: 'Husqvarna Viking HUS',
		extension: 'hus',
		mimeType: 'application/x-hus',
		readable: true,
		writable: false,
		warning:
			"Read only. HUS names each colour only by its place in Husqvarna's 29-colour chart, so the " +
			"threads read are that chart's colours, not the exact threads the design was made with.",
	},
	detect: looksLikeHus,
	detectionStrength: 3,
	read: readHus,
	// The older Husqvarna Viking machines that sew HUS take hoops of several sizes, and the file does not
	// say which: no common limit is known, so no hoop warning.
	largestHoop: null,
};
