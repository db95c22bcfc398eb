/**
 * Pfaff Creative PCD: PCS's layout with hoop code 0, whose hoop size is not documented
 * (pfaff-creative-reader.ts). It has no magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { pfaffCreativeReading, type PfaffCreativeVariant } from './pfaffCreativeReader';

export const pcdVariant: PfaffCreativeVariant = {
	label: 'PCD',
	bigEndian: false,
	colours: 'rgb',
	hoops: [],
	unsizedHoopCodes: [0],
};

export const pcdFormat: FormatModule = {
	info: {
		format: 'pcd',
		label: 'Pfaff Creative PCD',
		extension: 'pcd',
		mimeType: 'application/x-pcd',
		readable: true,
		writable: false,
		warning:
			'Read only. PCD names a hoop whose size is not documented, so the design is centred on its own ' +
			'middle rather than placed in the hoop; its colours, where it has any, are plain RGB values, and it ' +
			'has no trim code. PCD has no magic: the file is recognised by its whole structure.',
	},
	...pfaffCreativeReading(pcdVariant),
};
