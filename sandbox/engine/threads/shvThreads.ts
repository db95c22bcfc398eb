import { ThreadChart, type ChartThread } from './threadTable';

/**
 * Husqvarna Viking's SHV chart: an SHV file stores a code (0-42) per colour block. Codes missing here
 * are unassigned in the chart and read as an unknown thread.
 */
const shvRows: ReadonlyArray<readonly [number, number, string]> = [
	[0, 0x000000, 'Black'],
	[1, 0x0000ff, 'Blue'],
	[2, 0x33cc66, 'Green'],
	[3, 0xff0000, 'Red'],
	[4, 0xff00ff, 'Purple'],
	[5, 0xffff00, 'Yellow'],
	[6, 0x7f7f7f, 'Gray'],
	[7, 0x339aff, 'Light Blue'],
	[8, 0x00ff00, 'Light Green'],
	[9, 0xff7f00, 'Orange'],
	[10, 0xffa0b4, 'Pink'],
	[11, 0x994b00, 'Brown'],
	[12, 0xffffff, 'White'],
	[19, 0xff7f7f, 'Light Red'],
	[20, 0xff7fff, 'Light Purple'],
	[21, 0xffff99, 'Light Yellow'],
	[22, 0xc0c0c0, 'Light Gray'],
	[25, 0xffa541, 'Light Orange'],
	[26, 0xffcccc, 'Light Pink'],
	[27, 0xaf5a0a, 'Light Brown'],
	[33, 0x00007f, 'Dark Blue'],
	[34, 0x007f00, 'Dark Green'],
	[35, 0x7f0000, 'Dark Red'],
	[36, 0x7f007f, 'Dark Purple'],
	[37, 0xc8c800, 'Dark Yellow'],
	[38, 0x3c3c3c, 'Dark Gray'],
	[41, 0xe83f00, 'Dark Orange'],
	[42, 0xff667a, 'Dark Pink'],
];

export const shvThreadChart = new ThreadChart(
	'Husqvarna Viking',
	shvRows.map(
		([code, color, name]): ChartThread => ({ code, color, name, catalogNumber: String(code) }),
	),
);
