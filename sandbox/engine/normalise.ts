/**
 * What every writer needs before encoding: moves split to the format's longest step,
 * trims and stops expressed the way the format can, colour blocks, bounds and counts.
 */
import { recordBudget, tooManyRecords } from './ceilings';
import { UnreadableSourceError } from './errors';
import { boundsOf, Command, Pattern } from './pattern';
import type { Bounds, Thread } from './pattern';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, Stop, ColorChange, End } = Command;

export interface NormaliseOptions {
	/** Longest stitch one record can hold, per axis, in 0.1 mm. */
	maxStitch: number;
	/** Longest jump one record can hold, per axis, in 0.1 mm. */
	maxJump: number;
	/** The format has no trim code: write each trim as this many zero-length jumps (DST: 3). */
	trimAsJumps?: number;
	/** The format has no stop code: write stops as colour changes (the machine halts either way). */
	stopAsColourChange?: boolean;
	/** Format label for warnings, for example 'DST'. */
	label: string;
}

export interface NormalisedPattern {
	/** A new pattern ending in exactly one End; the source pattern is left untouched. */
	pattern: Pattern;
	warnings: string[];
}

/** How many equal records a move of (dx, dy) needs when one record holds at most `max` per axis. */
export function stepCount(dx: number, dy: number, max: number): number {
	const longest = Math.max(Math.abs(dx), Math.abs(dy));
	return longest === 0 ? 1 : Math.ceil(longest / max);
}

/** Appends a move too long for one record as equal shorter steps ending exactly at (toX, toY). */
function addSplitMove(
	out: Pattern,
	x: number,
	y: number,
	toX: number,
	toY: number,
	command: Command,
	limit: number,
): void {
	const dx = toX - x;
	const dy = toY - y;
	const steps = stepCount(dx, dy, limit);
	for (let k = 1; k < steps; k++)
		out.add(x + Math.round((dx * k) / steps), y + Math.round((dy * k) / steps), command);
	out.add(toX, toY, command);
}

/**
 * Refuses, before any record is written, a design whose moves would split into more records than
 * `recordBudget` allows (a few kilobytes of metre-long moves would otherwise become gigabytes).
 */
function checkRecordBudget(source: Pattern, options: NormaliseOptions): void {
	const { maxStitch, maxJump } = options;
	const { xs, ys, commands } = source;
	let added = 0;
	let longest = 0;
	let longestStep = maxJump;
	let x = 0;
	let y = 0;
	for (let i = 0; i < source.length; i++) {
		const command = commands[i];
		if (command === End) break;
		const dx = xs[i] - x;
		const dy = ys[i] - y;
		const limit = command === Stitch ? maxStitch : maxJump;
		if (dx > limit || dx < -limit || dy > limit || dy < -limit) {
			added += stepCount(dx, dy, limit) - 1;
			const length = Math.max(Math.abs(dx), Math.abs(dy));
			if (length > longest) {
				longest = length;
				longestStep = limit;
			}
		}
		x = xs[i];
		y = ys[i];
	}
	const records = source.length + added;
	if (added > 0 && records > recordBudget(source.length))
		throw tooManyRecords(options.label, source.length, records, longest, longestStep);
}

/**
 * Copies `source` into a writer-ready pattern. Commands other than stitch and jump never
 * move the needle here: if one carries another position, a jump is added to get there first.
 * Everything after the first End is dropped, since no machine sews past it.
 */
export function normaliseForWriter(source: Pattern, options: NormaliseOptions): NormalisedPattern {
	checkRecordBudget(source, options);
	const out = new Pattern(Math.max(1024, source.length + (source.length >> 4) + 16));
	out.threads = [];
	const { maxStitch, maxJump } = options;
	const { xs, ys, commands } = source;
	let splitStitches = 0;
	let splitJumps = 0;
	let stops = 0;
	let x = 0;
	let y = 0;
	let block = 0;
	let trimmed = false;

	const copyThread = (index: number): void => {
		const thread = source.threads[index];
		if (thread) out.threads.push({ ...thread });
	};

	copyThread(0);
	for (let i = 0; i < source.length; i++) {
		const command = commands[i] as Command;
		const toX = xs[i];
		const toY = ys[i];
		if (command === End) break;
		if (command === Stitch || command === Jump) {
			const limit = command === Stitch ? maxStitch : maxJump;
			const dx = toX - x;
			const dy = toY - y;
			if (dx > limit || dx < -limit || dy > limit || dy < -limit) {
				addSplitMove(out, x, y, toX, toY, command, limit);
				if (command === Stitch) splitStitches++;
				else splitJumps++;
			} else {
				out.add(toX, toY, command);
			}
			x = toX;
			y = toY;
			if (command === Stitch) trimmed = false;
			continue;
		}
		if (command !== Trim && command !== Stop && command !== ColorChange) continue;
		if (toX !== x || toY !== y) {
			addSplitMove(out, x, y, toX, toY, Jump, maxJump);
			x = toX;
			y = toY;
		}
		if (command === Trim) {
			if (trimmed) continue;
			trimmed = true;
			if (options.trimAsJumps) for (let k = 0; k < options.trimAsJumps; k++) out.add(x, y, Jump);
			else out.add(x, y, Trim);
		} else if (command === Stop && !options.stopAsColourChange) {
			out.add(x, y, Stop);
		} else if (command === Stop) {
			stops++;
			out.add(x, y, ColorChange);
			// The thread stays the same across a stop, so the new block repeats it.
			copyThread(block);
		} else {
			out.add(x, y, ColorChange);
			block++;
			copyThread(block);
		}
	}
	out.add(x, y, End);
	// Threads listed beyond the last block are kept: some files list their palette that way.
	for (let index = block + 1; index < source.threads.length; index++) copyThread(index);

	const warnings: string[] = [];
	if (splitStitches) {
		warnings.push(
			`${splitStitches} stitch(es) longer than ${options.label} allows (${maxStitch / 10} mm) ` +
				`were split into shorter stitches.`,
		);
	}
	if (splitJumps)
		warnings.push(
			`${splitJumps} long jump(s) were split into ${options.label}'s shorter jump records.`,
		);
	if (stops)
		warnings.push(
			`${options.label} has no stop code: ${stops} stop(s) were written as colour changes.`,
		);
	return { pattern: out, warnings };
}

export interface ColourBlock {
	/** Index of the block's first entry. */
	start: number;
	/** Index after the block's last entry (the colour change that ends it, or the pattern's length). */
	end: number;
	thread: Thread | undefined;
}

/** The pattern cut at its colour changes; block i is sewn with `pattern.threads[i]`. */
export function colourBlocks(pattern: Pattern): ColourBlock[] {
	const blocks: ColourBlock[] = [];
	let start = 0;
	for (let i = 0; i < pattern.length; i++) {
		if (pattern.commands[i] === ColorChange) {
			blocks.push({ start, end: i, thread: pattern.threads[blocks.length] });
			start = i + 1;
		}
	}
	blocks.push({ start, end: pattern.length, thread: pattern.threads[blocks.length] });
	return blocks;
}

export function countCommands(pattern: Pattern, command: Command): number {
	let count = 0;
	for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === command) count++;
	return count;
}

const needleMoves: readonly Command[] = [Stitch, Jump];

/** Extents of every stitch and jump, in 0.1 mm (all zero for an empty pattern). */
export function patternBounds(pattern: Pattern): Bounds {
	return boundsOf(pattern, needleMoves) ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 };
}

/**
 * Builds a pattern from relative moves, as most formats store them. Readers call `stitch`,
 * `jump`, `trim`, `colourChange`, `stop`, then `finish`.
 */
export class RelativePatternBuilder {
	readonly pattern: Pattern;
	x = 0;
	y = 0;
	/** True once the needle has sewn since the last trim or colour change: a trim before that is meaningless. */
	private sewnSinceCut = false;

	constructor(capacity = 1024) {
		this.pattern = new Pattern(capacity);
	}

	stitch(dx: number, dy: number): void {
		this.x += dx;
		this.y += dy;
		this.pattern.add(this.x, this.y, Stitch);
		this.sewnSinceCut = true;
	}

	/** A move without sewing; zero-length jumps are dropped since they take the needle nowhere. */
	jump(dx: number, dy: number): void {
		if (dx === 0 && dy === 0) return;
		this.x += dx;
		this.y += dy;
		this.pattern.add(this.x, this.y, Jump);
	}

	trim(): void {
		if (!this.sewnSinceCut) return;
		this.pattern.add(this.x, this.y, Trim);
		this.sewnSinceCut = false;
	}

	/**
	 * A trim before entry `index`, where the needle was at (x, y): for formats whose trim is only
	 * recognisable after the jumps that make it, so nothing needs holding back while reading.
	 */
	trimBefore(index: number, x: number, y: number): void {
		if (!this.sewnSinceCut) return;
		const pattern = this.pattern;
		pattern.add(x, y, Trim);
		const last = pattern.length - 1;
		pattern.xs.copyWithin(index + 1, index, last);
		pattern.ys.copyWithin(index + 1, index, last);
		pattern.commands.copyWithin(index + 1, index, last);
		pattern.xs[index] = x;
		pattern.ys[index] = y;
		pattern.commands[index] = Trim;
		this.sewnSinceCut = false;
	}

	colourChange(): void {
		this.pattern.add(this.x, this.y, ColorChange);
		this.sewnSinceCut = false;
	}

	stop(): void {
		this.pattern.add(this.x, this.y, Stop);
	}

	finish(): Pattern {
		this.pattern.add(this.x, this.y, End);
		return this.pattern;
	}
}

/**
 * The builder for a file of `recordBytes`-byte relative moves after a `headerSize`-byte header, sized
 * for its records; a file shorter than its header is refused.
 */
export function recordsBuilder(
	bytes: Uint8Array,
	headerSize: number,
	recordBytes: number,
	format: string,
): RelativePatternBuilder {
	if (bytes.length < headerSize) {
		throw new UnreadableSourceError(
			`A ${format} file starts with a ${headerSize}-byte header, but this file has only ${bytes.length} bytes.`,
		);
	}
	return new RelativePatternBuilder(
		Math.max(1024, Math.floor((bytes.length - headerSize) / recordBytes) + 2),
	);
}

/**
 * The builder for a headerless file of `recordBytes`-byte records, sized for them; a file that is not
 * a whole number of records is refused as not being `format` at all.
 */
export function wholeRecordsBuilder(
	bytes: Uint8Array,
	recordBytes: number,
	format: string,
): RelativePatternBuilder {
	if (bytes.length < recordBytes || bytes.length % recordBytes !== 0) {
		throw new UnreadableSourceError(
			`The file is not a ${format} file: its ${bytes.length} bytes are not a whole number of ` +
				`${recordBytes}-byte records.`,
		);
	}
	return new RelativePatternBuilder(Math.max(1024, bytes.length / recordBytes + 2));
}
