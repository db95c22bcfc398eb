/**
 * Singer XXX: a 256-byte header (colour count at 0x27, end-of-stitches offset at 0xFC),
 * 2-byte stitches (signed dx, dy; y pointing up), 0x7F-led 4-byte controls (0x01 jump,
 * 0x03 trim, 0x08 colour change, 0x7F end), 0x7D long jumps with 16-bit moves, then
 * the thread colours as 0x00RRGGBB after the end record.
 */
import type { FormatModule } from './format';
import { looksLikeXxx, readXxx } from './xxxReader';
import { writeXxx } from './xxxWriter';

export const xxxFormat: FormatModule = {
	info: {
		format: 'xxx',
		label: 'Singer XXX',
		extension: 'xxx',
		mimeType: 'application/x-xxx',
		readable: true,
		writable: true,
		warning:
			'XXX keeps thread colours as RGB only, without names or catalogue numbers. Stops are written as colour changes.',
	},
	detect: looksLikeXxx,
	detectionStrength: 2,
	read: readXxx,
	write: writeXxx,
	// Singer's Futura machines, which sew XXX, come with a 10 x 6 inch large hoop (254 x 152 mm) as their
	// biggest (reviews of the Futura XL-420 on topembroiderymachines.com and best-home-ideas.com).
	largestHoop: {
		widthMm: 152,
		heightMm: 254,
		description: "Singer Futura's 10 x 6 inch (254 x 152 mm) large hoop",
	},
};
