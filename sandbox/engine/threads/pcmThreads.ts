import { ThreadChart, type ChartThread } from './threadTable';

/** The 16-colour chart a Pfaff PCM file names its colours from (0-15): the 16 basic colours of a PC of its day. */
const pcmColours = [
	0x000000, 0x000080, 0x0000ff, 0x008080, 0x00ffff, 0x800080, 0xff00ff, 0x800000, 0xff0000,
	0x008000, 0x00ff00, 0x808000, 0xffff00, 0x808080, 0xc0c0c0, 0xffffff,
];

export const pcmThreadChart = new ThreadChart(
	'Pfaff',
	pcmColours.map(
		(color, code): ChartThread => ({
			code,
			color,
			name: `PCM colour ${code + 1}`,
			catalogNumber: String(code + 1),
		}),
	),
);
