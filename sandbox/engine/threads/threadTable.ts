import type { Thread } from '../pattern';
import { deltaE2000, rgbToLab, type Lab } from './colourDistance';

/**
 * One thread of a chart. For a machine maker's fixed chart (PEC, JEF) `code` is the number the
 * file stores; for a thread maker's palette it is the thread's place on the card, from 1.
 */
export interface ChartThread {
	code: number;
	color: number;
	name: string;
	catalogNumber: string;
}

/** What a reader names a colour code that no chart entry has. */
const unknownThread: Thread = { color: 0x000000, name: 'Unknown' };

/**
 * A thread chart with perceptual nearest-colour matching: a machine maker's fixed chart
 * (Brother PEC, Janome JEF) or a thread maker's colour card (the digitiser's palettes).
 */
export class ThreadChart {
	private readonly labs: Lab[];
	/** Codes past the chart's last one wrap round to its start: code % (last code + 1). */
	private readonly wrap: number;
	private readonly byCode = new Map<number, ChartThread>();
	private readonly nearestCache = new Map<number, ChartThread>();

	constructor(
		readonly brand: string,
		readonly threads: readonly ChartThread[],
	) {
		this.labs = threads.map((thread) => rgbToLab(thread.color));
		for (const thread of threads) this.byCode.set(thread.code, thread);
		this.wrap = Math.max(0, ...threads.map((thread) => thread.code)) + 1;
	}

	find(code: number): ChartThread | undefined {
		return this.byCode.get(code);
	}

	/**
	 * The thread a machine file's colour code names, as a pattern thread: a code past the chart's
	 * end wraps round, and a code the chart lacks (or the file leaves out) reads as black "Unknown".
	 */
	threadForCode(code: number | undefined): Thread {
		if (code === undefined) return unknownThread;
		const chartThread = this.find(code) ?? this.find(code % this.wrap);
		return chartThread ? this.toThread(chartThread) : unknownThread;
	}

	/**
	 * The chart thread closest to a Lab colour by CIEDE2000 (the first of equals), optionally never
	 * one of `excludedCodes`, and how far it is.
	 */
	nearestToLab(
		lab: Lab,
		excludedCodes?: ReadonlySet<number>,
	): { thread: ChartThread; distance: number } {
		let best = 0;
		let bestDistance = Infinity;
		for (let i = 0; i < this.threads.length; i++) {
			if (excludedCodes?.has(this.threads[i].code)) continue;
			const distance = deltaE2000(lab, this.labs[i]);
			if (distance < bestDistance) {
				bestDistance = distance;
				best = i;
			}
		}
		return { thread: this.threads[best], distance: bestDistance };
	}

	/** The chart thread closest to `color` by CIEDE2000, optionally never one of `excludedCodes`. */
	nearest(color: number, excludedCodes?: ReadonlySet<number>): ChartThread {
		const rgb = color & 0xffffff;
		const cacheable = !excludedCodes || excludedCodes.size === 0;
		const cached = cacheable ? this.nearestCache.get(rgb) : undefined;
		if (cached) return cached;
		const best = this.nearestToLab(rgbToLab(rgb), excludedCodes).thread;
		if (cacheable) this.nearestCache.set(rgb, best);
		return best;
	}

	/** The chart entry as a pattern thread, brand included. */
	toThread(thread: ChartThread): Thread {
		return {
			color: thread.color,
			name: thread.name,
			catalogNumber: thread.catalogNumber,
			brand: this.brand,
		};
	}
}
