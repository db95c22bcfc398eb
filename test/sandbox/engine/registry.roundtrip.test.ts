/**
 * Every readable format into every writable one and back: the needle goes to the same places
 * (within 0.1 mm), colour changes stay, and thread colours stay where the target carries them.
 * Formats join this suite by registering in `listFormats()`.
 */
import { listFormats, readPattern, writePattern } from '../../../sandbox/engine';
import { findModule } from '../../../sandbox/engine/registry';
import { countCommands } from '../../../sandbox/engine/normalise';
import { threadBlocks } from '../../../sandbox/engine/threads/colourBlocks';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import type { Thread } from '../../../sandbox/engine/pattern';
import { fixture } from '../../support/embroideryFiles';
import { compareEvents, countKind, patternEvents } from './support/referenceDecoding';
import { builtStars } from './support/builtFiles';
import { starSampleNames } from './support/starSamples';
import type { EventOptions } from './support/referenceDecoding';

const formats = listFormats();
const readable = new Set(
	formats.filter((format) => format.readable).map((format) => format.format),
);
const writable = formats.filter((format) => format.writable).map((format) => format.format);

/** How a target keeps thread colours: exactly (RGB), snapped to its fixed chart, or not at all. */
const colourKeeping: Record<string, 'exact' | 'chart' | 'none'> = {
	dst: 'exact',
	xxx: 'exact',
	vp3: 'exact',
	pes: 'exact',
	exp: 'none',
	u01: 'none',
	tap: 'none',
	tbf: 'exact',
	'10o': 'none',
};
const keepingOf = (format: string) => colourKeeping[format] ?? 'chart';

/** Targets that keep a thread whole, not only its colour: PE-Design's and Viking's own thread lists. */
const wholeThreads = ['pes', 'vp3'].filter((format) => writable.includes(format));

/** Targets without a jump command, where a short move becomes part of the next stitch. */
const movesFoldIntoStitches = new Set(['vp3']);

/** Moves may be split or merged and stops may become colour changes; where stitches land may not change. */
const sameSewing: EventOptions = { collapseMoves: true, stopsAsColourChanges: true };

function expectSameSewing(source: Pattern, back: Pattern, target: string): void {
	const expected = patternEvents(source, sameSewing);
	const actual = patternEvents(back, sameSewing);
	const movesMayFold = movesFoldIntoStitches.has(target);
	expect(
		compareEvents(expected, actual, { tolerance: 1, splitStitchesAllowed: true, movesMayFold })
			.differences,
	).toEqual([]);
	expect(countKind(actual, 'colour')).toBe(countKind(expected, 'colour'));
}

function rgb(threads: Thread[]): number[] {
	return threads.map((thread) => thread.color & 0xffffff);
}

function expectColoursKept(source: Pattern, back: Pattern, target: string): void {
	const keeping = keepingOf(target);
	if (keeping === 'none' || source.threads.length === 0) return;
	const blocks = countCommands(source, Command.ColorChange) + 1;
	if (keeping === 'exact') {
		// Compared per sewn block: a target without stops repeats the thread across a stop.
		const sourceBlocks = threadBlocks(source);
		const backBlocks = threadBlocks(back);
		const sewn = sourceBlocks.threads.length;
		const given = sourceBlocks.defaulted.map((defaulted) => !defaulted);
		const kept = (threads: Thread[]) =>
			rgb(threads.slice(0, sewn)).filter((_, block) => given[block]);
		expect(kept(backBlocks.threads)).toEqual(kept(sourceBlocks.threads));
		return;
	}
	// A chart format snaps each colour to its nearest chart entry: once snapped, a second trip keeps it.
	expect(back.threads.length).toBeGreaterThanOrEqual(Math.min(blocks, source.threads.length));
	const again = readPattern(writePattern(back, target).bytes, target);
	expect(rgb(again.threads)).toEqual(rgb(back.threads));
}

/**
 * Every shared sample of a readable format, and the star built in the layout of formats without one, by the
 * format its extension names.
 */
const fixtureCases = [
	...starSampleNames().map((name) => ({ name, bytes: new Uint8Array(fixture(name)) })),
	...builtStars(),
]
	.map(({ name, bytes }) => {
		const extension = name.split('.').pop()!.toLowerCase();
		return {
			name,
			bytes,
			source: formats.find((format) => format.extension === extension)?.format,
		};
	})
	.filter((sample): sample is { name: string; bytes: Uint8Array; source: string } =>
		Boolean(sample.source && readable.has(sample.source)),
	);

describe.each(fixtureCases)('$name', ({ bytes, source }) => {
	const original = readPattern(bytes, source);

	it.each(writable)(`converts to %s and back with every needle position kept`, (target) => {
		const written = writePattern(original, target);
		const back = readPattern(written.bytes, target);
		expectSameSewing(original, back, target);
		expectColoursKept(original, back, target);
	});
});

/** A design that exercises every writer's normalisation: long stitches and jumps, trims, stops, many colours. */
function syntheticDesign(): Pattern {
	const pattern = new Pattern();
	const colours = 24;
	for (let block = 0; block < colours; block++) {
		const originX = -900 + (block % 6) * 300;
		const originY = -900 + Math.floor(block / 6) * 450;
		pattern.add(originX, originY, Command.Jump);
		for (let row = 0; row < 12; row++) {
			const y = originY + row * 4;
			pattern.add(originX + (row % 2 ? 0 : 250), y, Command.Stitch);
		}
		// One stitch far longer than any format's record: writers must split it.
		pattern.add(originX + 20, originY + 300, Command.Stitch);
		pattern.add(originX + 20, originY + 300, Command.Trim);
		if (block === 10) pattern.add(originX + 20, originY + 300, Command.Stop);
		pattern.add(originX + 40, originY + 320, Command.Stitch);
		if (block < colours - 1) pattern.add(originX + 40, originY + 320, Command.ColorChange);
		pattern.threads.push({
			color: (block * 0x0a1b2c + 0x102030) & 0xffffff,
			name: `Colour ${block}`,
		});
	}
	// A long jump back across the whole design.
	pattern.add(900, 900, Command.Jump);
	pattern.add(901, 900, Command.Stitch);
	pattern.add(901, 900, Command.End);
	return pattern;
}

describe('a synthetic design with long moves, trims, a stop and 24 colours', () => {
	const design = syntheticDesign();

	it.each(writable)('is written to %s and read back sewing the same way', (target) => {
		const written = writePattern(design, target);
		const back = readPattern(written.bytes, target);
		expectSameSewing(design, back, target);
		expectColoursKept(design, back, target);
		expect(countCommands(back, Command.Trim)).toBeGreaterThanOrEqual(
			countCommands(design, Command.Trim),
		);
	});

	it.each(writable)('comes back from %s unchanged by a second trip', (target) => {
		const once = readPattern(writePattern(design, target).bytes, target);
		const twice = readPattern(writePattern(once, target).bytes, target);
		expect(compareEvents(patternEvents(once), patternEvents(twice)).differences).toEqual([]);
	});
});

describe('an empty design', () => {
	it.each(writable)('is written to %s as a valid, empty file that no job completes', (target) => {
		const empty = new Pattern();
		const bytes = writePattern(empty, target).bytes;
		const back = findModule(target)!.read!(bytes);
		expect(countCommands(back, Command.Stitch)).toBe(0);
		expect(() => readPattern(bytes, target)).toThrow(/holds no stitches/);
	});
});

describe('threads through every conversion', () => {
	const design = syntheticDesign();
	design.threads = design.threads.map((thread, index) => ({
		...thread,
		catalogNumber: String(1800 + index),
		brand: index % 2 ? 'Madeira Polyneon' : 'Isacord',
	}));
	const keepers = writable.filter((format) => keepingOf(format) !== 'none');

	it.each(keepers.flatMap((via) => wholeThreads.map((to) => [via, to])))(
		'a design converted to %s and then to %s keeps what both hold of each thread',
		(via, to) => {
			const once = readPattern(writePattern(design, via).bytes, via);
			const twice = readPattern(writePattern(once, to).bytes, to);
			// Block by block: a format without stops repeats the thread where another stops.
			const sewn = (pattern: Pattern) => threadBlocks(pattern).threads;
			if (wholeThreads.includes(via)) expect(sewn(twice)).toEqual(sewn(design));
			else expect(rgb(sewn(twice))).toEqual(rgb(sewn(once)));
		},
	);

	it.each(keepers.filter((format) => keepingOf(format) === 'chart'))(
		'a design in %s keeps its chart threads through every whole-thread format and back',
		(chartFormat) => {
			// Without its stop: VP3 has none, and a stop written as a change to the same thread comes back
			// from a chart format as the next-nearest colour (a repeated code would be a stop).
			const changesOnly = new Pattern();
			for (let i = 0; i < design.length; i++)
				if (design.commands[i] !== Command.Stop)
					changesOnly.add(design.xs[i], design.ys[i], design.commands[i] as Command);
			changesOnly.threads = design.threads;
			const charted = readPattern(writePattern(changesOnly, chartFormat).bytes, chartFormat);
			for (const via of wholeThreads) {
				const through = readPattern(writePattern(charted, via).bytes, via);
				const back = readPattern(writePattern(through, chartFormat).bytes, chartFormat);
				expect([via, threadBlocks(back).threads]).toEqual([via, threadBlocks(charted).threads]);
			}
		},
	);
});
