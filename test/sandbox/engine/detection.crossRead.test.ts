/**
 * Every sample against every reader and against detection, built from `formatModules` so a new reader is
 * covered without edits: a reader refuses another format's file with the engine's own error, or reads its
 * own format's sample as the star; detection finds a sample's own format or refuses it, never another,
 * under its own name, a neutral one or any format's name. Fuzzed bytes never detect as a format they do not
 * read as whole.
 */
import fc from 'fast-check';

import { fuzzReaders } from '../../../bench/fuzz-readers';
import { PatternTooLargeError, UnreadableSourceError } from '../../../sandbox/engine/errors';
import { formatModules } from '../../../sandbox/engine/formats';
import { countCommands, patternBounds } from '../../../sandbox/engine/normalise';
import { Command, type Pattern } from '../../../sandbox/engine/pattern';
import {
	detectFormat,
	findModule,
	readPattern,
	writePattern,
} from '../../../sandbox/engine/registry';
import { fixture } from '../../support/embroideryFiles';
import { builtStars } from './support/builtFiles';
import { starSampleNames } from './support/starSamples';

const readers = formatModules.filter((module) => module.read);
const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();
/** The formats a sample's extension names (DAT names more than one maker's format). */
const ownFormats = (name: string) =>
	readers
		.filter((module) => module.info.extension.toLowerCase() === extensionOf(name))
		.map((module) => module.info.format);

const star = readPattern(fixture('Star.DST'), 'dst');

interface Sample {
	name: string;
	bytes: Uint8Array;
}

/**
 * The shared Star files, the star built in the layout of formats without a shared sample, and the star as
 * every writer writes it (the only samples of PEC and VP3).
 */
const samples: Sample[] = [
	...starSampleNames().map((name) => ({ name, bytes: new Uint8Array(fixture(name)) })),
	...builtStars().map(({ name, bytes }) => ({ name: name.replace('Star.', 'Star-built.'), bytes })),
	...formatModules
		.filter((module) => module.write)
		.map((module) => ({
			name: `Star-written.${module.info.extension}`,
			bytes: module.write!(star).bytes,
		})),
];

/** The star's size and stitch count: what every format's reading of a Star sample must show. */
function expectTheStar(pattern: Pattern): void {
	const bounds = patternBounds(pattern);
	const starBounds = patternBounds(star);
	const size = (b: typeof bounds) => [b.maxX - b.minX, b.maxY - b.minY];
	const [width, height] = size(bounds);
	const [starWidth, starHeight] = size(starBounds);
	expect(Math.abs(width - starWidth)).toBeLessThanOrEqual(10);
	expect(Math.abs(height - starHeight)).toBeLessThanOrEqual(10);
	const stitches = countCommands(pattern, Command.Stitch);
	expect(Math.abs(stitches - countCommands(star, Command.Stitch))).toBeLessThanOrEqual(
		countCommands(star, Command.Stitch) * 0.05,
	);
}

/** How a reader ends on bytes it does not take: with the engine's own refusal, not a crash. */
function refusalOf(read: () => unknown): Error | null {
	try {
		read();
		return null;
	} catch (error) {
		return error as Error;
	}
}

const isEngineRefusal = (error: Error | null) =>
	error instanceof UnreadableSourceError || error instanceof PatternTooLargeError;

describe.each(samples)('$name', ({ name, bytes }) => {
	const own = ownFormats(name);

	it.each(readers.map((module) => module.info.format))(
		'is refused by the %s reader unless it is its own format, then read as the star',
		(format) => {
			const module = findModule(format)!;
			if (own.includes(format) && own.length === 1) {
				expectTheStar(module.read!(bytes));
				return;
			}
			const error = refusalOf(() => module.read!(bytes));
			if (own.includes(format)) {
				// One of several formats of the same extension: it refuses cleanly or reads the star.
				if (error === null) expectTheStar(module.read!(bytes));
				else expect(isEngineRefusal(error)).toBe(true);
				return;
			}
			expect([format, error?.constructor.name ?? 'read without a refusal']).toEqual([
				format,
				expect.stringMatching(/^(UnreadableSourceError|PatternTooLargeError)$/),
			]);
		},
	);

	it('is detected as its own format under its own name, and as no other under any name', () => {
		const underOwnName = detectFormat(bytes, name);
		expect([name, underOwnName]).toEqual([name, own.length > 0 ? expect.any(String) : null]);
		if (underOwnName !== null) expect(own).toContain(underOwnName);
		for (const fileName of [
			'design',
			...readers.map((module) => `design.${module.info.extension}`),
		]) {
			const detected = detectFormat(bytes, fileName);
			if (detected !== null)
				expect([fileName, own]).toEqual([fileName, expect.arrayContaining([detected])]);
		}
	});
});

describe('fuzzed bytes', () => {
	const seeds = samples.filter(({ name }) => ownFormats(name).length > 0);

	it('never detect, under any name, as a format without a magic they do not read as whole', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...seeds),
				fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 24 }),
				fc.option(fc.nat(), { nil: undefined }),
				fc.constantFrom('design', ...readers.map((module) => `design.${module.info.extension}`)),
				({ bytes }, changes, cut, fileName) => {
					const mutated = bytes.slice(
						0,
						cut === undefined ? bytes.length : 1 + (cut % bytes.length),
					);
					for (const [at, value] of changes) mutated[at % mutated.length] = value;
					const format = detectFormat(mutated, fileName);
					if (format === null) return;
					const error = refusalOf(() => findModule(format)!.read!(mutated));
					// A format with a magic may still find the file damaged: the job then fails, it never completes.
					if (findModule(format)!.detectionStrength === 3)
						expect(error === null || isEngineRefusal(error)).toBe(true);
					else expect(error).toBeNull();
				},
			),
			{ numRuns: 400, seed: 31 },
		);
	});

	it("never crash a reader or complete as another format: bench:fuzz's per-format table, 40 files a format", () => {
		const rows = fuzzReaders(40, 31);
		expect(rows.map((row) => row.format).sort()).toEqual(
			readers.map((module) => module.info.format).sort(),
		);
		for (const row of rows)
			expect([row.format, row.crashes, row.misreads, row.examples]).toEqual([row.format, 0, 0, []]);
	});

	it('never detect, written anew, as anything but the format written', () => {
		const writers = formatModules.filter((module) => module.write);
		for (const module of writers) {
			expect([
				module.info.format,
				detectFormat(writePattern(star, module.info.format).bytes),
			]).toEqual([module.info.format, module.info.format]);
		}
	});
});
