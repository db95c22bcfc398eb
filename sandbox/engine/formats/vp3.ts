import type { FormatModule } from './format';
import { hasVp3Magic, readVp3 } from './vp3Reader';
import { writeVp3 } from './vp3Writer';

/** Pfaff / Husqvarna Viking VP3: nested big-endian blocks with a full thread record per colour block. */
export const vp3Format: FormatModule = {
	info: {
		format: 'vp3',
		label: 'Pfaff VP3',
		extension: 'vp3',
		mimeType: 'application/x-vp3',
		readable: true,
		writable: true,
		warning:
			'Keeps exact thread colours, names and catalogue numbers. VP3 has no jump or stop commands: a move of up ' +
			'to 25.5 mm is sewn as a long stitch unless the thread was trimmed before it, a longer move trims, and ' +
			'stops become colour changes with the same thread.',
	},
	detect: hasVp3Magic,
	detectionStrength: 3,
	read: readVp3,
	write: writeVp3,
	// The largest hoop shipped with Husqvarna Viking's top machine, the DESIGNER EPIC 2: the DESIGNER Imperial
	// Hoop, 360 x 260 mm (quiltsocial.com, "The anatomy of a machine embroidery hoop").
	largestHoop: {
		widthMm: 260,
		heightMm: 360,
		description: "Husqvarna Viking's 360 x 260 mm Imperial hoop",
	},
};
