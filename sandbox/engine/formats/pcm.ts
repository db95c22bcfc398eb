/**
 * Pfaff Creative PCM: PCS's layout in big-endian, its colours named by places in a 16-colour chart
 * (pfaff-creative-reader.ts). It has no magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { pfaffCreativeReading, type PfaffCreativeVariant } from './pfaffCreativeReader';
import { pcsVariant } from './pcs';

export const pcmVariant: PfaffCreativeVariant = {
	...pcsVariant,
	label: 'PCM',
	bigEndian: true,
	colours: 'chart',
};

export const pcmFormat: FormatModule = {
	info: {
		format: 'pcm',
		label: 'Pfaff Creative PCM',
		extension: 'pcm',
		mimeType: 'application/x-pcm',
		readable: true,
		writable: false,
		warning:
			"Read only. PCM names each colour by its place in a 16-colour chart (the chart's colours are read, " +
			'not the threads the design was made with), and has no trim code. PCM has no magic: the file is ' +
			'recognised by its whole structure.',
	},
	...pfaffCreativeReading(pcmVariant),
};
