/**
 * Pfaff Creative PCS: a short header (version, hoop code, up to 16 RGB colours, record count), then
 * 9-byte records of absolute fixed-point positions in 1/6 mm (pfaff-creative-reader.ts). It has no
 * magic, so it is recognised by its whole structure only.
 */
import type { FormatModule } from './format';
import { pfaffCreativeReading, type PfaffCreativeVariant } from './pfaffCreativeReader';

/** Hoop 2 is the 80 x 80 mm hoop, 3 the 120 x 115 mm one (Star.PCS's, centred at (60, 57.5) mm). */
export const pcsVariant: PfaffCreativeVariant = {
	label: 'PCS',
	bigEndian: false,
	colours: 'rgb',
	hoops: [
		{ code: 2, width: 800, height: 800 },
		{ code: 3, width: 1200, height: 1150 },
	],
	unsizedHoopCodes: [],
};

export const pcsFormat: FormatModule = {
	info: {
		format: 'pcs',
		label: 'Pfaff Creative PCS',
		extension: 'pcs',
		mimeType: 'application/x-pcs',
		readable: true,
		writable: false,
		warning:
			'Read only. PCS keeps at most 16 colours as plain RGB values, without thread names, and has no trim ' +
			'code, so trims are not marked. PCS has no magic: the file is recognised by its whole structure.',
	},
	...pfaffCreativeReading(pcsVariant),
};
