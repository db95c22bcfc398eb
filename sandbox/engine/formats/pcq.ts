/**
 * Pfaff Creative PCQ: PCS's layout with hoop code 1, whose hoop size is not documented
 * (pfaff-creative-reader.ts). It has no magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { pfaffCreativeReading, type PfaffCreativeVariant } from './pfaffCreativeReader';

export const pcqVariant: PfaffCreativeVariant = {
	label: 'PCQ',
	bigEndian: false,
	colours: 'rgb',
	hoops: [],
	unsizedHoopCodes: [1],
};

export const pcqFormat: FormatModule = {
	info: {
		format: 'pcq',
		label: 'Pfaff Creative PCQ',
		extension: 'pcq',
		mimeType: 'application/x-pcq',
		readable: true,
		writable: false,
		warning:
			'Read only. PCQ names a hoop whose size is not documented, so the design is centred on its own ' +
			'middle rather than placed in the hoop; its colours, where it has any, are plain RGB values, and it ' +
			'has no trim code. PCQ has no magic: the file is recognised by its whole structure.',
	},
	...pfaffCreativeReading(pcqVariant),
};
