/**
 * The per-format half of `npm run bench:fuzz` (also runnable alone: `tsx bench/fuzz-readers.ts [perFormat]
 * [seed]`): every registered reader gets `perFormat` mutated copies of its own samples (bit flips, truncation,
 * header counts and offsets set to extremes, repeated runs, splices of two of them) through the job's engine
 * path: detection by content and name, the read, the measure and a write. A crash is any error but the
 * engine's own; a misread is a file completed as a format other than the one it was made from.
 */
import { performance } from 'node:perf_hooks';

import {
	PatternTooLargeError,
	UnreadableSourceError,
	UnwritablePatternError,
	identifyFormat,
	listFormats,
	measurePattern,
	readPattern,
	writePattern,
} from '../sandbox/engine';
import { mutatedCopy, randomSource, seedFiles } from './fuzz-inputs';
import { fixed, printTable } from './support/table';

export interface ReaderFuzzRow {
	format: string;
	/** Samples the mutations start from (the shared Star file, written stars). */
	seeds: number;
	files: number;
	/** Refused by detection, as the upload's 422 would. */
	refused: number;
	/** Detected as their own format, then failed cleanly (damaged, too large). */
	failedCleanly: number;
	/** Detected as their own format and converted. */
	completed: number;
	crashes: number;
	misreads: number;
	/** The slowest file's detection and conversion, ms. */
	slowestMs: number;
	examples: string[];
}

const engineErrors = [UnreadableSourceError, PatternTooLargeError, UnwritablePatternError];

export function fuzzReaders(perFormat: number, seed: number): ReaderFuzzRow[] {
	const random = randomSource(seed ^ 0x31);
	const seeds = seedFiles(random);
	const formats = listFormats().filter((format) => format.readable);
	return formats.map((format) => {
		const own = seeds.filter((entry) => entry.extension === format.extension.toLowerCase());
		// Splices only between files of this format: a DST header spliced onto DSB records is a DSB file.
		const ownBytes = own.map((entry) => entry.bytes);
		const row: ReaderFuzzRow = {
			format: format.format,
			seeds: own.length,
			files: 0,
			refused: 0,
			failedCleanly: 0,
			completed: 0,
			crashes: 0,
			misreads: 0,
			slowestMs: 0,
			examples: [],
		};
		for (let i = 0; i < perFormat && own.length > 0; i++) {
			const base = random.pick(own);
			const { bytes, steps } = mutatedCopy(random, base.bytes, ownBytes);
			const name = `fuzz-${i}.${format.extension}`;
			const started = performance.now();
			convertAsAJobWould(row, bytes, name, format.format, `${base.name}: ${steps}`);
			row.slowestMs = Math.max(row.slowestMs, performance.now() - started);
			row.files++;
		}
		return row;
	});
}

/** Detection, read, measure and write, as the upload check and the engine process do them. */
function convertAsAJobWould(
	row: ReaderFuzzRow,
	bytes: Uint8Array,
	name: string,
	madeAs: string,
	origin: string,
): void {
	const note = (what: string) => {
		if (row.examples.length < 3) row.examples.push(`${what} (${origin})`);
	};
	try {
		const identified = identifyFormat(bytes, name);
		if (identified.format === null) {
			row.refused++;
			return;
		}
		const pattern = readPattern(bytes, identified.format);
		measurePattern(pattern);
		writePattern(pattern, identified.format === 'dst' ? 'pes' : 'dst');
		if (identified.format === madeAs) row.completed++;
		else {
			row.misreads++;
			note(`completed as ${identified.format}`);
		}
	} catch (error) {
		if (engineErrors.some((type) => error instanceof type)) row.failedCleanly++;
		else {
			row.crashes++;
			note(`${(error as Error).name}: ${(error as Error).message}`);
		}
	}
}

export function printReaderTable(rows: ReaderFuzzRow[]): void {
	printTable(
		'Mutated files per reader (detection, read, measure and write, as a job does them)',
		[
			'format',
			'seeds',
			'files',
			'refused',
			'failed',
			'completed',
			'crashes',
			'misreads',
			'slowest ms',
		],
		rows.map((row) => [
			row.format,
			row.seeds,
			row.files,
			row.refused,
			row.failedCleanly,
			row.completed,
			row.crashes,
			row.misreads,
			row.seeds === 0 ? 'no sample to mutate' : fixed(row.slowestMs, 1),
		]),
		[
			'refused: at upload (422); failed: detected as its own format, then refused by the engine;',
			"crashes: any error but the engine's own; misreads: completed as a format other than its own.",
			...rows.flatMap((row) => row.examples.map((example) => `${row.format}: ${example}`)),
		],
	);
}

/** True when every reader met its count with no crash and no misread. */
export function readersHeld(rows: ReaderFuzzRow[], perFormat: number): boolean {
	return rows.every(
		(row) => row.crashes === 0 && row.misreads === 0 && (row.seeds === 0 || row.files >= perFormat),
	);
}

if (require.main === module) {
	const [perFormat = '1000', seed = '1'] = process.argv.slice(2);
	const rows = fuzzReaders(Number(perFormat), Number(seed));
	printReaderTable(rows);
	process.exitCode = readersHeld(rows, Number(perFormat)) ? 0 : 1;
}
