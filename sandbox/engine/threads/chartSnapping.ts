import type { Thread } from '../pattern';
import { colourHex } from './colourDistance';
import type { ThreadBlocks } from './colourBlocks';
import type { ChartThread, ThreadChart } from './threadTable';

export interface SnappedBlocks {
	/** Chart code written for each colour block. */
	codes: number[];
	warnings: string[];
}

const maxListedChanges = 8;

/**
 * Map every colour block to the nearest chart thread. A block after a colour change never gets the
 * previous block's code (machines read a repeated code as a stop), so it takes the next-nearest;
 * a block after a stop repeats the code on purpose.
 */
export function snapToChart(
	blocks: ThreadBlocks,
	chart: ThreadChart,
	formatLabel: string,
	/** Where the format also keeps the exact threads (PES: "its header, which PE-Design reads"), if it does. */
	exactThreadsKeptIn?: string,
): SnappedBlocks {
	const codes: number[] = [];
	const changed = new Map<number, ChartThread>();
	blocks.threads.forEach((thread: Thread, index) => {
		const previousCode = codes[index - 1];
		if (index > 0 && blocks.startsAfterStop[index]) {
			codes.push(previousCode);
			return;
		}
		let chosen = chart.nearest(thread.color);
		if (index > 0 && chosen.code === previousCode)
			chosen = chart.nearest(thread.color, new Set([previousCode]));
		codes.push(chosen.code);
		if (!blocks.defaulted[index] && chosen.color !== (thread.color & 0xffffff))
			changed.set(thread.color & 0xffffff, chosen);
	});

	const warnings: string[] = [];
	if (blocks.defaulted.includes(true)) {
		warnings.push(
			`The design carries no thread colours for some blocks; ${formatLabel} got default colours for them.`,
		);
	}
	if (changed.size > 0) {
		const listed = [...changed]
			.slice(0, maxListedChanges)
			.map(
				([from, to]) =>
					`${colourHex(from)} → ${to.name} (${to.catalogNumber}, ${colourHex(to.color)})`,
			);
		const more =
			changed.size > maxListedChanges ? ` and ${changed.size - maxListedChanges} more` : '';
		const nearest = `${listed.join('; ')}${more}`;
		warnings.push(
			exactThreadsKeptIn
				? `${formatLabel} keeps the exact threads in ${exactThreadsKeptIn}, but machines sew from ` +
						`${chart.brand}'s ${chart.threads.length}-colour thread chart and show the nearest: ${nearest}.`
				: `${formatLabel} stores only ${chart.brand}'s ${chart.threads.length}-colour thread chart; ` +
						`colours were snapped to the nearest: ${nearest}.`,
		);
	}
	return { codes, warnings };
}
