/**
 * The most work one job may ask of the engine. A design that would go past a ceiling is refused
 * at once with PatternTooLargeError (failure code `pattern_too_large`), so a small hostile file
 * can never grow into gigabytes of records; a position off the pattern model's range is refused
 * as a damaged file instead of wrapping around the 32-bit arrays.
 */
import { PatternTooLargeError, UnreadableSourceError } from './errors';

export const ceilings = {
	/** Entries (stitches, jumps and commands) in one pattern, read or written: twice the bench's 1M-stitch design. */
	patternEntries: 2_000_000,
	/**
	 * Every position lies within this distance of the origin on each axis, in 0.1 mm (10 m, wider
	 * than any embroidery field).
	 */
	coordinate: 100_000,
	/** Records a writer may write per entry of the design it is given, splitting long moves included... */
	recordsPerEntry: 3,
	/** ...plus this many, so a small design with a few long moves still converts. */
	extraRecords: 100_000,
	/** Bytes of one written machine file. */
	outputBytes: 32 * 1024 * 1024,
} as const;

const grouped = (value: number): string => Math.round(value).toLocaleString('en-US');
const metres = (tenthsOfMm: number): string =>
	tenthsOfMm >= 10_000 ? `${(tenthsOfMm / 10_000).toFixed(1)} m` : `${tenthsOfMm / 10} mm`;

export function tooManyEntries(): PatternTooLargeError {
	return new PatternTooLargeError(
		`The design holds more than ${grouped(ceilings.patternEntries)} stitches and commands, ` +
			`the most one job handles. Split it into smaller designs.`,
	);
}

/** Moves that lead off the pattern model's range: no real file does that, so it is damaged. */
export function coordinateOutOfRange(x: number, y: number): UnreadableSourceError {
	const where =
		Number.isFinite(x) && Number.isFinite(y)
			? `lead ${metres(Math.max(Math.abs(x), Math.abs(y)))} from its origin`
			: 'lead to a position that is not a number';
	return new UnreadableSourceError(
		`The file is damaged: its moves ${where}, beyond the ${metres(ceilings.coordinate)} on ` +
			`each axis that the engine handles (no embroidery field is that large).`,
	);
}

/** Most records a writer may produce for a design of `entries` entries. */
export function recordBudget(entries: number): number {
	return Math.min(
		ceilings.patternEntries,
		entries * ceilings.recordsPerEntry + ceilings.extraRecords,
	);
}

export function tooManyRecords(
	label: string,
	entries: number,
	records: number,
	longestMove: number,
	stepLength: number,
): PatternTooLargeError {
	return new PatternTooLargeError(
		`Written as ${label}, this design of ${grouped(entries)} entries would ` +
			`need ${grouped(records)} records: its moves (up to ${metres(longestMove)} long) must be ` +
			`split into steps of at most ${stepLength / 10} mm. A conversion may write at ` +
			`most ${grouped(recordBudget(entries))} records for it (${ceilings.recordsPerEntry} per ` +
			`entry plus ${grouped(ceilings.extraRecords)}, ${grouped(ceilings.patternEntries)} at ` +
			`most): the file's long moves are probably damaged.`,
	);
}

export function outputTooLarge(bytes: number): PatternTooLargeError {
	return new PatternTooLargeError(
		`The written file would be larger than ${ceilings.outputBytes / 1024 / 1024} MB ` +
			`(${grouped(bytes)} bytes at least), the most one job writes.`,
	);
}
