import {
	colourHex,
	deltaE2000,
	labToRgb,
	type ChartThread,
	type Lab,
	type ThreadChart,
} from '../engine';
import type { Quantised } from './quantise';

/** A thread a snapped colour can be far from before the user is told: beyond this the eye sees a different colour. */
const farMatch = 15;
/** Colours further apart than this are different colours to the eye, not shades of one. */
const distinctColours = 8;

export interface SnappedColours {
	/** Thread slot of every pixel; 255 for background. */
	labels: Uint8Array;
	threads: ChartThread[];
	warnings: string[];
}

/** Replaces each quantised colour by its nearest thread (CIEDE2000); colours landing on one thread become one. */
export function snapToPalette(
	quantised: Quantised,
	chart: ThreadChart,
	paletteLabel: string,
): SnappedColours {
	const warnings: string[] = [];
	const threads: ChartThread[] = [];
	const firstCentres: Lab[] = [];
	const slotOfCluster = quantised.representatives.map((centre, cluster) => {
		if (quantised.sizes[cluster] === 0) return 255;
		const { thread: best, distance: bestDistance } = chart.nearestToLab(centre);
		if (bestDistance > farMatch) {
			warnings.push(
				`Colour ${colourHex(labToRgb(centre))} has no close match in ${paletteLabel}; ` +
					`using ${threadName(best)} (difference ${bestDistance.toFixed(0)}).`,
			);
		}
		const existing = threads.indexOf(best);
		if (existing >= 0) {
			// Two shades of one artwork colour landing on one thread is no news; distinct colours are.
			if (deltaE2000(centre, firstCentres[existing]) > distinctColours) {
				warnings.push(
					`Colours ${colourHex(labToRgb(firstCentres[existing]))} ` +
						`and ${colourHex(labToRgb(centre))} both match ${threadName(best)}; they were merged ` +
						`into that thread.`,
				);
			}
			return existing;
		}
		threads.push(best);
		firstCentres.push(centre);
		return threads.length - 1;
	});
	const labels = quantised.labels;
	const map = new Uint8Array(256).fill(255);
	slotOfCluster.forEach((slot, cluster) => (map[cluster] = slot));
	for (let i = 0; i < labels.length; i++) labels[i] = map[labels[i]];
	return { labels, threads, warnings };
}

export function threadName(thread: ChartThread): string {
	return thread.catalogNumber ? `${thread.catalogNumber} ${thread.name}` : thread.name;
}
