/**
 * The pattern model every reader produces and every writer consumes.
 * Coordinates are absolute, in 0.1 mm, x to the right and y pointing down.
 * Stored as parallel typed arrays so a million-stitch design stays compact and fast.
 * Positions and length are bounded by `ceilings`: a pattern refuses to grow or wrap past them.
 */
import { ceilings, coordinateOutOfRange, tooManyEntries } from './ceilings';

const maxCoordinate = ceilings.coordinate;

export const Command = {
	Stitch: 0,
	Jump: 1,
	Trim: 2,
	Stop: 3,
	ColorChange: 4,
	End: 5,
} as const;
export type Command = (typeof Command)[keyof typeof Command];

export const commandNames: Record<Command, string> = {
	0: 'STITCH',
	1: 'JUMP',
	2: 'TRIM',
	3: 'STOP',
	4: 'COLOR_CHANGE',
	5: 'END',
};

export interface Thread {
	/** 0xRRGGBB */
	color: number;
	name?: string;
	catalogNumber?: string;
	brand?: string;
}

/** A rectangle in the pattern's coordinates (0.1 mm, y down). */
export interface Bounds {
	minX: number;
	minY: number;
	maxX: number;
	maxY: number;
}

/** A thread as a file describes it; text fields the file leaves empty are left out. */
export function threadOf(fields: Thread): Thread {
	const thread: Thread = { color: fields.color };
	if (fields.name) thread.name = fields.name;
	if (fields.catalogNumber) thread.catalogNumber = fields.catalogNumber;
	if (fields.brand) thread.brand = fields.brand;
	return thread;
}

export class Pattern {
	xs: Int32Array;
	ys: Int32Array;
	commands: Uint8Array;
	length = 0;
	/** One thread per colour block: block 0 is sewn before the first colour change. */
	threads: Thread[] = [];
	/** What the reader tells the job about the file it read (it ends early, its count disagrees...). */
	warnings: string[] = [];

	constructor(capacity = 1024) {
		capacity = Math.min(capacity, ceilings.patternEntries);
		this.xs = new Int32Array(capacity);
		this.ys = new Int32Array(capacity);
		this.commands = new Uint8Array(capacity);
	}

	add(x: number, y: number, command: Command): void {
		if (this.length === this.xs.length) this.grow();
		const roundX = Math.round(x);
		const roundY = Math.round(y);
		// Written so that NaN fails too: an Int32Array would store it as 0.
		if (
			!(roundX <= maxCoordinate && roundX >= -maxCoordinate) ||
			!(roundY <= maxCoordinate && roundY >= -maxCoordinate)
		)
			throw coordinateOutOfRange(roundX, roundY);
		this.xs[this.length] = roundX;
		this.ys[this.length] = roundY;
		this.commands[this.length] = command;
		this.length++;
	}

	/** Position of the last entry, or the origin for an empty pattern. */
	lastX(): number {
		return this.length ? this.xs[this.length - 1] : 0;
	}

	lastY(): number {
		return this.length ? this.ys[this.length - 1] : 0;
	}

	private grow(): void {
		if (this.xs.length >= ceilings.patternEntries) throw tooManyEntries();
		const capacity = Math.min(ceilings.patternEntries, Math.max(1024, this.xs.length * 2));
		const xs = new Int32Array(capacity);
		const ys = new Int32Array(capacity);
		const commands = new Uint8Array(capacity);
		xs.set(this.xs);
		ys.set(this.ys);
		commands.set(this.commands);
		this.xs = xs;
		this.ys = ys;
		this.commands = commands;
	}
}

/** Extents of the entries whose command is one of `counted`, or null when there is none. */
export function boundsOf(pattern: Pattern, counted: readonly Command[]): Bounds | null {
	const { xs, ys, commands, length } = pattern;
	let mask = 0;
	for (const command of counted) mask |= 1 << command;
	let minX = Infinity;
	let minY = Infinity;
	let maxX = -Infinity;
	let maxY = -Infinity;
	for (let i = 0; i < length; i++) {
		if (((1 << commands[i]) & mask) === 0) continue;
		const x = xs[i];
		const y = ys[i];
		if (x < minX) minX = x;
		if (x > maxX) maxX = x;
		if (y < minY) minY = y;
		if (y > maxY) maxY = y;
	}
	return minX === Infinity ? null : { minX, minY, maxX, maxY };
}
