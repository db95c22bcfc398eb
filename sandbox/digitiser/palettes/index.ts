import type { ThreadPalette } from './chart';
import { generic } from './generic';
import { isacord } from './isacord';
import { madeira } from './madeira';
import { robisonAnton } from './robisonAnton';

export type { ThreadPalette } from './chart';

const palettes: ThreadPalette[] = [generic, madeira, isacord, robisonAnton];

/** The palettes a job may name in `thread_palette_key`. */
export const threadPalettes: Array<{ key: string; label: string; brand: string }> = palettes.map(
	({ key, label, chart }) => ({ key, label, brand: chart.brand }),
);

/** The palette for a key, or undefined when no palette has that key. */
export function findPalette(key: string): ThreadPalette | undefined {
	return palettes.find((palette) => palette.key === key);
}
