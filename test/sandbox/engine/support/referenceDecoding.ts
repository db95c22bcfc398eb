/**
 * Fixture harness: loads the real embroidery files with pyembroidery's independent decoding
 * and compares where the needle goes. Trims and how jumps encode them are ignored; stitch
 * positions, moves to new places and colour changes are not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Command, Pattern } from '../../../../sandbox/engine/pattern';

import { fixturesDir as fixtureDir } from '../../../support/embroideryFiles';

/** `[x, y, command]` in absolute 0.1 mm, y down: one entry of a design a test writes out by hand. */
export type Entry = [number, number, Command];

/** A design from hand-written entries, with plain thread colours when given. */
export function patternOf(entries: Entry[], colours: number[] = []): Pattern {
	const pattern = new Pattern();
	for (const [x, y, command] of entries) pattern.add(x, y, command);
	pattern.threads = colours.map((color) => ({ color }));
	return pattern;
}

/** A pattern's entries as `[x, y, command]`, to compare with hand-written ones. */
export function entriesOf(pattern: Pattern): Entry[] {
	return Array.from({ length: pattern.length }, (_, i) => [
		pattern.xs[i],
		pattern.ys[i],
		pattern.commands[i] as Command,
	]);
}

/** `[x, y, COMMAND]` in absolute 0.1 mm, y down, as pyembroidery names the commands ('9' = needle set). */
export type ReferenceCommand = [number, number, string];

export interface ExpectedSummary {
	stitches: number;
	colorChanges: number;
	threads: { hex: string; description: string | null; catalog: string | null }[];
	'bounds_0.1mm': [number, number, number, number];
	commandCounts: Record<string, number>;
}

export interface Fixture {
	name: string;
	bytes: Uint8Array;
	commands: ReferenceCommand[];
	expected: ExpectedSummary;
}

export const fixtureNames = [
	'Star.DST',
	'Star.EXP',
	'Star.JEF',
	'Star.XXX',
	'Star.pes',
	'Star.u01',
];

export function loadFixture(name: string): Fixture {
	const bytes = new Uint8Array(readFileSync(join(fixtureDir, name)));
	const commands = JSON.parse(
		readFileSync(join(fixtureDir, `${name}.commands.json`), 'utf8'),
	) as ReferenceCommand[];
	const expected = (
		JSON.parse(readFileSync(join(fixtureDir, 'expected.json'), 'utf8')) as Record<
			string,
			ExpectedSummary
		>
	)[name];
	return { name, bytes, commands, expected };
}

export type NeedleEventKind = 'stitch' | 'move' | 'colour' | 'stop';

export interface NeedleEvent {
	kind: NeedleEventKind;
	x: number;
	y: number;
}

export interface EventOptions {
	/** Merge a run of moves into one move to where the run ends (how a writer splits a jump does not matter). */
	collapseMoves?: boolean;
	/** Count stops as colour changes, for targets that can only write a stop as a colour change. */
	stopsAsColourChanges?: boolean;
}

function eventsFrom(
	entries: Iterable<{ x: number; y: number; kind: NeedleEventKind | 'trim' | 'end' | 'move' }>,
	options: EventOptions,
): NeedleEvent[] {
	const events: NeedleEvent[] = [];
	let x = 0;
	let y = 0;
	for (const entry of entries) {
		if (entry.kind === 'end') break;
		if (entry.kind === 'trim') continue;
		if (entry.kind === 'move') {
			if (entry.x === x && entry.y === y) continue;
			const last = events[events.length - 1];
			if (options.collapseMoves && last?.kind === 'move') {
				last.x = entry.x;
				last.y = entry.y;
			} else {
				events.push({ kind: 'move', x: entry.x, y: entry.y });
			}
			x = entry.x;
			y = entry.y;
			continue;
		}
		const kind = entry.kind === 'stop' && options.stopsAsColourChanges ? 'colour' : entry.kind;
		if (kind === 'stitch') {
			x = entry.x;
			y = entry.y;
		}
		events.push({ kind, x: kind === 'stitch' ? entry.x : x, y: kind === 'stitch' ? entry.y : y });
	}
	return events;
}

const referenceKinds: Record<string, NeedleEventKind | 'trim' | 'end' | 'move'> = {
	STITCH: 'stitch',
	JUMP: 'move',
	TRIM: 'trim',
	STOP: 'stop',
	COLOR_CHANGE: 'colour',
	'9': 'colour',
	// pyembroidery's name for a needle change (DSB, DSZ, TBF), which changes the colour too.
	NEEDLE_SET: 'colour',
	END: 'end',
};

export function referenceEvents(
	commands: ReferenceCommand[],
	options: EventOptions = {},
): NeedleEvent[] {
	return eventsFrom(
		commands.map(([x, y, name]) => {
			const kind = referenceKinds[name];
			if (!kind) throw new Error(`Unknown reference command ${name}`);
			return { x, y, kind };
		}),
		options,
	);
}

const patternKinds: Record<number, NeedleEventKind | 'trim' | 'end' | 'move'> = {
	[Command.Stitch]: 'stitch',
	[Command.Jump]: 'move',
	[Command.Trim]: 'trim',
	[Command.Stop]: 'stop',
	[Command.ColorChange]: 'colour',
	[Command.End]: 'end',
};

export function patternEvents(pattern: Pattern, options: EventOptions = {}): NeedleEvent[] {
	function* entries() {
		for (let i = 0; i < pattern.length; i++) {
			yield { x: pattern.xs[i], y: pattern.ys[i], kind: patternKinds[pattern.commands[i]] };
		}
	}
	return eventsFrom(entries(), options);
}

export interface CompareOptions {
	/** Largest allowed difference per axis, in 0.1 mm (a target's rounding). */
	tolerance?: number;
	/**
	 * Where `expected` has a stitch, `actual` may have a move to the same place. Only for
	 * records the reference reader is known to read as stitches (EXP's 0x80 0x02 jumps).
	 */
	movesMayBeStitches?: boolean;
	/** `actual` may hold extra stitches on the straight line to the next expected stitch (a long stitch split). */
	splitStitchesAllowed?: boolean;
	/**
	 * Compare only where the needle stitches, not the moves between: VP3 has no jump, so a short move
	 * becomes part of the next stitch and a move before a colour change goes into the next block's start.
	 */
	movesMayFold?: boolean;
}

export interface Comparison {
	/** Human-readable differences; empty when the needle goes to the same places. */
	differences: string[];
	/** How many expected stitches `actual` holds as moves (see `movesMayBeStitches`). */
	stitchesReadAsMoves: number;
	/** How many more moves `expected` holds than `actual` (see `movesMayFold`). */
	movesFolded: number;
}

function near(a: NeedleEvent, b: NeedleEvent, tolerance: number): boolean {
	return Math.abs(a.x - b.x) <= tolerance && Math.abs(a.y - b.y) <= tolerance;
}

function onSegment(
	point: NeedleEvent,
	from: { x: number; y: number },
	to: NeedleEvent,
	tolerance: number,
): boolean {
	const dx = to.x - from.x;
	const dy = to.y - from.y;
	const lengthSquared = dx * dx + dy * dy;
	if (lengthSquared === 0) return false;
	const t = ((point.x - from.x) * dx + (point.y - from.y) * dy) / lengthSquared;
	if (t <= 0 || t >= 1) return false;
	const distance =
		Math.abs((point.x - from.x) * dy - (point.y - from.y) * dx) / Math.sqrt(lengthSquared);
	return distance <= tolerance + 0.5;
}

function describe(event: NeedleEvent | undefined): string {
	return event ? `${event.kind} at (${event.x}, ${event.y})` : 'nothing';
}

/** Walks both event lists in step and reports the places where the needle would go elsewhere. */
export function compareEvents(
	expected: NeedleEvent[],
	actual: NeedleEvent[],
	options: CompareOptions = {},
): Comparison {
	const tolerance = options.tolerance ?? 0;
	const differences: string[] = [];
	let stitchesReadAsMoves = 0;
	let movesFolded = 0;
	let e = 0;
	let a = 0;
	let position = { x: 0, y: 0 };
	while (e < expected.length && a < actual.length && differences.length < 10) {
		const want = expected[e];
		const got = actual[a];
		if (options.movesMayFold && (want.kind === 'move' || got.kind === 'move')) {
			// Moves are passed over on both sides; the frame still goes where the actual move goes.
			if (got.kind === 'move') {
				position = got;
				movesFolded--;
				a++;
			}
			if (want.kind === 'move') {
				movesFolded++;
				e++;
			}
			continue;
		}
		if (
			want.kind === got.kind &&
			(want.kind === 'colour' || want.kind === 'stop' || near(want, got, tolerance))
		) {
			if (got.kind === 'stitch' || got.kind === 'move') position = got;
			e++;
			a++;
			continue;
		}
		if (
			options.movesMayBeStitches &&
			want.kind === 'stitch' &&
			got.kind === 'move' &&
			near(want, got, tolerance)
		) {
			stitchesReadAsMoves++;
			position = got;
			e++;
			a++;
			continue;
		}
		if (
			options.splitStitchesAllowed &&
			want.kind === 'stitch' &&
			got.kind === 'stitch' &&
			onSegment(got, position, want, tolerance)
		) {
			position = got;
			a++;
			continue;
		}
		differences.push(
			`event ${e}: expected ${describe(want)}, got ${describe(got)} (actual event ${a})`,
		);
		e++;
		a++;
	}
	if (options.movesMayFold) {
		for (; e < expected.length && expected[e].kind === 'move'; e++) movesFolded++;
		for (; a < actual.length && actual[a].kind === 'move'; a++) movesFolded--;
	}
	if (differences.length === 0 && (e < expected.length || a < actual.length)) {
		differences.push(
			`lengths differ: expected ${expected.length} events, got ${actual.length}; next ` +
				`expected ${describe(expected[e])}, next actual ${describe(actual[a])}`,
		);
	}
	return { differences, stitchesReadAsMoves, movesFolded };
}

/** Compares a pattern read from a fixture with the fixture's reference decoding. */
export function compareWithReference(
	pattern: Pattern,
	fixture: Fixture,
	options: CompareOptions = {},
): Comparison {
	return compareEvents(referenceEvents(fixture.commands), patternEvents(pattern), options);
}

/** Where a written and read-back design sews differently; a move may be split, a long stitch too. */
export function sewingDifferences(written: Pattern, readBack: Pattern): string[] {
	const options = { collapseMoves: true };
	return compareEvents(patternEvents(written, options), patternEvents(readBack, options), {
		splitStitchesAllowed: true,
	}).differences;
}

export function countKind(events: NeedleEvent[], kind: NeedleEventKind): number {
	return events.filter((event) => event.kind === kind).length;
}

/** Counts EXP's 4-byte control records with the given code, walking the file as a Melco machine does. */
export function expControlRecords(bytes: Uint8Array, code: number): number {
	let count = 0;
	for (let offset = 0; offset + 2 <= bytes.length; ) {
		if (bytes[offset] === 0x80) {
			if (bytes[offset + 1] === code) count++;
			offset += 4;
		} else offset += 2;
	}
	return count;
}

/** Star.pes's PEC block behind the PEC signature: the same stitches as a standalone .pec file. */
export function starAsPec(): Uint8Array {
	const pes = loadFixture('Star.pes').bytes;
	const pecOffset = new DataView(pes.buffer, pes.byteOffset).getUint32(8, true);
	return new Uint8Array([...Buffer.from('#PEC0001', 'latin1'), ...pes.subarray(pecOffset)]);
}
