import { Command, type Pattern, type Thread } from '../pattern';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stop: STOP, ColorChange: COLOR_CHANGE, End: END } = Command;

/** Distinct colours for designs that carry none (DST, EXP), so each block still looks different. */
const defaultColours = [
	0x0a55a3, 0xed171f, 0x70bc1f, 0xffd911, 0x000000, 0x913697, 0xfe9e32, 0x2584bb, 0x6a1c8a,
	0x00673e,
];

export function defaultThread(blockIndex: number): Thread {
	return { color: defaultColours[blockIndex % defaultColours.length] };
}

/** The colour blocks a machine sews: one starts at the beginning and after every colour change or stop. */
export interface ThreadBlocks {
	threads: Thread[];
	/** True for a block the machine reaches through a stop: same thread, the operator only resumes. */
	startsAfterStop: boolean[];
	/** True for a block the design gave no thread for, so a default colour stands in. */
	defaulted: boolean[];
}

export function threadBlocks(pattern: Pattern): ThreadBlocks {
	let threadIndex = 0;
	const threads: Thread[] = [];
	const startsAfterStop: boolean[] = [];
	const defaulted: boolean[] = [];
	const startBlock = (index: number, afterStop: boolean): void => {
		const given = afterStop ? threads[threads.length - 1] : pattern.threads[index];
		threads.push(given ?? defaultThread(index));
		defaulted.push(afterStop ? defaulted[defaulted.length - 1] : !given);
		startsAfterStop.push(afterStop);
	};
	startBlock(0, false);
	const { commands, length } = pattern;
	for (let i = 0; i < length; i++) {
		const command = commands[i];
		if (command === END) break;
		if (command === COLOR_CHANGE) {
			threadIndex++;
			startBlock(threadIndex, false);
		} else if (command === STOP) {
			startBlock(threadIndex, true);
		}
	}
	return { threads, startsAfterStop, defaulted };
}

/**
 * After reading a chart-based file (PEC, PES), a block whose thread repeats the previous one is the
 * format's way of writing a stop: turn that colour change into a Stop and drop the repeated thread.
 */
export function repeatedThreadsAsStops(pattern: Pattern): void {
	const sameThread = (a: Thread, b: Thread): boolean =>
		a.color === b.color &&
		a.name === b.name &&
		a.catalogNumber === b.catalogNumber &&
		a.brand === b.brand;
	const threads = pattern.threads;
	const kept: Thread[] = threads.length ? [threads[0]] : [];
	let block = 0;
	for (let i = 0; i < pattern.length; i++) {
		if (pattern.commands[i] !== COLOR_CHANGE) continue;
		block++;
		const previous = threads[block - 1];
		const current = threads[block];
		if (previous && current && sameThread(previous, current)) pattern.commands[i] = STOP;
		else if (current) kept.push(current);
	}
	for (let b = block + 1; b < threads.length; b++) kept.push(threads[b]);
	pattern.threads = kept;
}
