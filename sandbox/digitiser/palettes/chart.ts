import { ThreadChart } from '../../engine';

/** A thread maker's colour card a job can name in `thread_palette_key`: the chart and how it is listed. */
export interface ThreadPalette {
	key: string;
	label: string;
	chart: ThreadChart;
}

/**
 * A palette from its card's rows: catalogue number (empty when the card has none), colour name
 * and 0xRRGGBB. The brand is written into each thread of the pattern; empty for the generic card.
 */
export function threadPalette(
	key: string,
	label: string,
	brand: string,
	rows: Array<[string, string, number]>,
): ThreadPalette {
	const threads = rows.map(([catalogNumber, name, color], index) => ({
		code: index + 1,
		color,
		name,
		catalogNumber,
	}));
	return { key, label, chart: new ThreadChart(brand, threads) };
}
