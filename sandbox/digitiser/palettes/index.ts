import { hexToLab, type Lab } from '../colour';
import type { ThreadChart } from './chart';
import { generic } from './generic';
import { isacord } from './isacord';
import { madeira } from './madeira';
import { robisonAnton } from './robison-anton';

export type { ThreadChart } from './chart';

const charts: ThreadChart[] = [generic, madeira, isacord, robisonAnton];

/** The palettes a job may name in `thread_palette_key`. */
export const threadPalettes: Array<{ key: string; label: string; brand: string }> = charts.map(
	({ key, label, brand }) => ({ key, label, brand }),
);

/** A thread ready for matching: its card entry plus its colour in Lab. */
export interface PaletteThread {
	catalogNumber: string;
	name: string;
	rgb: number;
	lab: Lab;
}

const prepared = new Map<string, PaletteThread[]>();

/** The chart for a key, or undefined when no palette has that key. */
export function findChart(key: string): ThreadChart | undefined {
	return charts.find((chart) => chart.key === key);
}

export function paletteThreads(chart: ThreadChart): PaletteThread[] {
	let threads = prepared.get(chart.key);
	if (!threads) {
		threads = chart.colours.map(([catalogNumber, name, rgb]) => ({ catalogNumber, name, rgb, lab: hexToLab(rgb) }));
		prepared.set(chart.key, threads);
	}
	return threads;
}
