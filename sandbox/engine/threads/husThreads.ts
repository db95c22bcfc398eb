import { ThreadChart, type ChartThread } from './threadTable';

/**
 * Husqvarna Viking's 29-colour chart: a HUS file stores each colour block's place in it (0-28); the
 * catalogue number is the colour's number on Husqvarna's own card.
 */
const husRows: ReadonlyArray<readonly [number, number, string, string]> = [
	[0, 0x000000, 'Black', '026'],
	[1, 0x0000e7, 'Blue', '005'],
	[2, 0x00c600, 'Green', '002'],
	[3, 0xff0000, 'Red', '014'],
	[4, 0x840084, 'Purple', '008'],
	[5, 0xffff00, 'Yellow', '020'],
	[6, 0x848484, 'Grey', '024'],
	[7, 0x8484e7, 'Light Blue', '006'],
	[8, 0x00ff84, 'Light Green', '003'],
	[9, 0xff7b31, 'Orange', '017'],
	[10, 0xff8ca5, 'Pink', '011'],
	[11, 0x845200, 'Brown', '028'],
	[12, 0xffffff, 'White', '022'],
	[13, 0x000084, 'Dark Blue', '004'],
	[14, 0x008400, 'Dark Green', '001'],
	[15, 0x7b0000, 'Dark Red', '013'],
	[16, 0xff6384, 'Light Red', '015'],
	[17, 0x522952, 'Dark Purple', '007'],
	[18, 0xff00ff, 'Light Purple', '009'],
	[19, 0xffde00, 'Dark Yellow', '019'],
	[20, 0xffff9c, 'Light Yellow', '021'],
	[21, 0x525252, 'Dark Grey', '025'],
	[22, 0xd6d6d6, 'Light Grey', '023'],
	[23, 0xff5208, 'Dark Orange', '016'],
	[24, 0xff9c5a, 'Light Orange', '018'],
	[25, 0xff52b5, 'Dark Pink', '010'],
	[26, 0xffc6de, 'Light Pink', '012'],
	[27, 0x523100, 'Dark Brown', '027'],
	[28, 0xb5a584, 'Light Brown', '029'],
];

export const husThreadChart = new ThreadChart(
	'Husqvarna Viking',
	husRows.map(
		([code, color, name, catalogNumber]): ChartThread => ({ code, color, name, catalogNumber }),
	),
);
