/**
 * Completed garbage (`tsx bench/fuzz-garbage.ts [perSample] [seed]`, also part of `npm run bench:fuzz`): every
 * shared sample in test/fixtures/embroidery gets `perSample` damaged versions (1-3 bytes changed, cut short,
 * or one sample's first bytes spliced over or before another's), each taken through the job's engine path
 * (detection by content and name, read, measure, write). A version that completes must be right: its needle
 * path must share at least 99% of a source's path. A version read up to a cut, whose job warns so, must
 * share 99% of its own points with the start of a source's path. Anything else that completes is garbage
 * a user would be charged for; a refusal is always fine. One splice is a valid design of another path:
 * Star.EXP's first records over the EXP records of Star.BRO's body, joined at a record, is two EXP streams
 * end to end, which is all an EXP file is; read as EXP it must follow the two streams' paths, one after the other.
 */
import {
	PatternTooLargeError,
	UnreadableSourceError,
	UnwritablePatternError,
	hoopWarning,
	identifyFormat,
	measurePattern,
	readPattern,
	writePattern,
	type Pattern,
} from '../sandbox/engine';
import { shareOf, stepsOf, type NeedlePoint } from '../test/sandbox/engine/support/needlePath';
import { sharedSamples } from '../test/sandbox/engine/support/starSamples';
import { randomSource, type Random } from './fuzz-inputs';
import { printTable } from './support/table';

/** The least share of a source's path a completed version must have. */
export const rightShare = 0.99;

export interface GarbageRow {
	sample: string;
	versions: number;
	refused: number;
	completed: number;
	/** Completed versions whose job warned that the file was read only up to a cut. */
	completedCut: number;
	/**
	 * Versions cut short that completed shorter than their source without a warning: right as far as they go,
	 * but the user is not told (a headerless format without an end record, such as EXP, cannot tell).
	 */
	cutUnwarned: number;
	/** Completed versions that are two EXP streams joined, read as both streams' paths in turn. */
	joinedExp: number;
	/** Completed versions that share less than `rightShare` of any source's path. */
	garbage: number;
	examples: string[];
}

interface Sample {
	name: string;
	bytes: Uint8Array;
	/** Where each move of the design lands relative to the one before: a flipped move costs one step, not the rest. */
	steps: NeedlePoint[];
}

function samplesWithSteps(): Sample[] {
	return sharedSamples().map(({ name, bytes }) => ({
		name,
		bytes,
		steps: stepsOf(readPattern(bytes, identifyFormat(bytes, name).format!)),
	}));
}

/** A job warning that says the file was read only up to a cut. */
export const cutWarning = /^The file ends early/;

interface Version {
	bytes: Uint8Array;
	name: string;
	/** The samples whose path a right reading may follow. */
	sources: Sample[];
	how: string;
	/** A version cut short: whatever it holds can only be the start of its source. */
	cut: boolean;
	/** For two EXP streams joined at a record: the path of each, one after the other. */
	joined?: NeedlePoint[];
}

/** Where a sample's EXP records start, for samples that hold them: BRO's records follow its 256-byte header. */
const expRecordsStart: Record<string, number> = { 'Star.EXP': 0, 'Star.BRO': 256 };

/**
 * The path of `header`'s first `head` bytes and then `body`'s bytes from `head` on, each read as EXP by
 * itself, when both are EXP records by their own format and the join falls between two of them; else
 * undefined.
 */
function joinedExpPath(header: Sample, body: Sample, head: number): NeedlePoint[] | undefined {
	const bodyStart = expRecordsStart[body.name];
	if (header.name !== 'Star.EXP' || bodyStart === undefined || head < bodyStart || head % 2 !== 0)
		return undefined;
	try {
		const first = readPattern(header.bytes.subarray(0, head), 'exp');
		const second = readPattern(body.bytes.subarray(head), 'exp');
		return [...stepsOf(first), ...stepsOf(second)];
	} catch {
		// A part that is not whole EXP records by itself (a control record cut in two): no join.
		return undefined;
	}
}

function version(random: Random, sample: Sample, samples: Sample[]): Version {
	const bytes = sample.bytes;
	const roll = random.next();
	if (roll < 0.5) {
		const out = bytes.slice();
		const count = random.int(1, 3);
		// Half the versions change the first 600 bytes, where counts, extents and offsets live.
		const span = random.next() < 0.5 ? Math.min(600, out.length) : out.length;
		const at: number[] = [];
		for (let i = 0; i < count; i++) {
			const where = random.int(0, span - 1);
			out[where] ^= random.int(1, 255);
			at.push(where);
		}
		return {
			bytes: out,
			name: sample.name,
			sources: [sample],
			how: `bytes changed at ${at.join(', ')}`,
			cut: false,
		};
	}
	if (roll < 0.75) {
		const cut = random.int(0, bytes.length - 1);
		return {
			bytes: bytes.slice(0, cut),
			name: sample.name,
			sources: [sample],
			how: `cut to ${cut} bytes`,
			cut: true,
		};
	}
	const other = random.pick(samples.filter((entry) => entry !== sample));
	const head = random.pick([4, 8, 16, 32, 64, 128, 256, 512, random.int(1, 600)]);
	const headFirst = random.next() < 0.5;
	const [header, body] = headFirst ? [sample, other] : [other, sample];
	const prefix = random.next() < 0.3;
	const out = prefix
		? concat(header.bytes.subarray(0, head), body.bytes)
		: concat(
				header.bytes.subarray(0, head),
				body.bytes.subarray(Math.min(head, body.bytes.length)),
			);
	return {
		bytes: out,
		name: random.pick([header.name, body.name]),
		sources: [header, body],
		how: `${head} bytes of ${header.name} ${prefix ? 'before' : 'over the start of'} ${body.name}`,
		cut: false,
		joined: prefix ? undefined : joinedExpPath(header, body, head),
	};
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	const out = new Uint8Array(a.length + b.length);
	out.set(a);
	out.set(b, a.length);
	return out;
}

const engineErrors = [UnreadableSourceError, PatternTooLargeError, UnwritablePatternError];

/** The job's engine path: null when refused, else the pattern and the job's warnings. */
function convert(
	bytes: Uint8Array,
	name: string,
): { format: string; pattern: Pattern; warnings: string[] } | null {
	const identified = identifyFormat(bytes, name);
	if (identified.format === null) return null;
	try {
		const pattern = readPattern(bytes, identified.format);
		const metrics = measurePattern(pattern);
		const target = identified.format === 'dst' ? 'exp' : 'dst';
		const written = writePattern(pattern, target);
		const warnings = [...pattern.warnings, ...written.warnings];
		const tooLarge = hoopWarning(target, metrics.widthMm, metrics.heightMm, null);
		if (tooLarge) warnings.push(tooLarge);
		return { format: identified.format, pattern, warnings };
	} catch (error) {
		if (engineErrors.some((type) => error instanceof type)) return null;
		throw error;
	}
}

export function fuzzGarbage(perSample: number, seed: number): GarbageRow[] {
	const random = randomSource(seed ^ 0x6a7b);
	const samples = samplesWithSteps();
	return samples.map((sample) => {
		const row: GarbageRow = {
			sample: sample.name,
			versions: 0,
			refused: 0,
			completed: 0,
			completedCut: 0,
			cutUnwarned: 0,
			joinedExp: 0,
			garbage: 0,
			examples: [],
		};
		for (let i = 0; i < perSample; i++) {
			const made = version(random, sample, samples);
			row.versions++;
			const result = convert(made.bytes, made.name);
			if (!result) {
				row.refused++;
				continue;
			}
			row.completed++;
			const warned = result.warnings.some((warning) => cutWarning.test(warning));
			if (warned) row.completedCut++;
			const cut = warned || made.cut;
			const steps = stepsOf(result.pattern);
			if (made.cut && !warned && steps.length < sample.steps.length) row.cutUnwarned++;
			const best = Math.max(...made.sources.map((source) => shareOf(source.steps, steps, cut)));
			const joined = made.joined && result.format === 'exp' ? made.joined : undefined;
			if (best < rightShare && joined && shareOf(joined, steps, false) >= rightShare) {
				row.joinedExp++;
				continue;
			}
			if (best < rightShare) {
				row.garbage++;
				if (row.examples.length < 3)
					row.examples.push(
						`${made.how}, named ${made.name}: completed as ${result.format} with ` +
							`${(best * 100).toFixed(1)}% of the path` +
							`${cut ? ' (warned as cut)' : ''}`,
					);
			}
		}
		return row;
	});
}

/** Completed garbage over every sample: the figure `npm run bench:fuzz` must hold at 0. */
export function garbageTotal(rows: GarbageRow[]): number {
	return rows.reduce((sum, row) => sum + row.garbage, 0);
}

export function printGarbageTable(rows: GarbageRow[]): void {
	const total = (
		key:
			| 'versions'
			| 'refused'
			| 'completed'
			| 'completedCut'
			| 'cutUnwarned'
			| 'joinedExp'
			| 'garbage',
	) => rows.reduce((sum, row) => sum + row[key], 0);
	printTable(
		'Damaged and spliced shared samples through the job path: completed garbage',
		[
			'sample',
			'versions',
			'refused',
			'completed',
			'warned cut',
			'cut unwarned',
			'joined EXP',
			'garbage',
		],
		[
			...rows.map((row) => [
				row.sample,
				row.versions,
				row.refused,
				row.completed,
				row.completedCut,
				row.cutUnwarned,
				row.joinedExp,
				row.garbage,
			]),
			[
				'total',
				total('versions'),
				total('refused'),
				total('completed'),
				total('completedCut'),
				total('cutUnwarned'),
				total('joinedExp'),
				total('garbage'),
			],
		],
		[
			`garbage: completed with less than ${rightShare * 100}% of a source's path (as steps from point to point);`,
			'warned cut: completed with a warning that the file ends early; it and every version cut short are',
			'judged on the points they hold. cut unwarned: cut short, completed shorter, and nothing said so.',
			"joined EXP: Star.EXP's first records over Star.BRO's EXP records, read as the two streams in turn.",
			...rows.flatMap((row) => row.examples.map((example) => `${row.sample}: ${example}`)),
		],
	);
}

if (require.main === module) {
	const [perSample = '1000', seed = '1'] = process.argv.slice(2);
	const rows = fuzzGarbage(Number(perSample), Number(seed));
	printGarbageTable(rows);
	process.exitCode = garbageTotal(rows) === 0 ? 0 : 1;
}
