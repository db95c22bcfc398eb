import type { FormatModule } from './format';
import { hasVp3Magic, readVp3 } from './vp3-reader';
import { writeVp3 } from './vp3-writer';

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
};
