/**
 * Damaged and hostile inputs for every registered reader: truncated, bit-flipped, random and
 * other formats' files. A reader may only return a pattern or throw UnreadableSourceError, and
 * what it returns must stay in proportion to the bytes it was given. Seeded, so failures repeat.
 */
import { detectFormat, listFormats, writePattern } from '../../../sandbox/engine';
import { formatModules } from '../../../sandbox/engine/formats';
import { UnreadableSourceError } from '../../../sandbox/engine/errors';
import type { FormatModule } from '../../../sandbox/engine/formats/format';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import { fixtureNames } from './support/referenceDecoding';
import { seededRandom, sharedSample } from './support/starSamples';

/** A small design every writer can hold, so formats without a fixture get a real sample too. */
function sampleDesign(): Pattern {
	const pattern = new Pattern();
	for (let i = 0; i < 300; i++)
		pattern.add((i % 30) * 12 - 180, Math.floor(i / 30) * 15, Command.Stitch);
	pattern.add(0, 200, Command.Trim);
	pattern.add(0, 200, Command.ColorChange);
	for (let i = 0; i < 50; i++) pattern.add(i * 5, 200 + (i % 2) * 30, Command.Stitch);
	pattern.threads = [
		{ color: 0x336699, name: 'Blue' },
		{ color: 0xcc3300, name: 'Rust' },
	];
	return pattern;
}

const samples: { name: string; bytes: Uint8Array }[] = [
	...fixtureNames.map((name) => ({ name, bytes: sharedSample(name) })),
	...listFormats()
		.filter((format) => format.writable)
		.map((format) => ({
			name: `sample.${format.format}`,
			bytes: writePattern(sampleDesign(), format.format).bytes,
		})),
];

const readers = formatModules.filter((module) => module.read);

/** Reads `bytes`, failing the test on any error other than UnreadableSourceError or an outsized result. */
function expectSafeRead(module: FormatModule, bytes: Uint8Array, what: string): void {
	let pattern: Pattern;
	try {
		pattern = module.read!(bytes);
	} catch (error) {
		if (error instanceof UnreadableSourceError) return;
		throw new Error(
			`${module.info.format} reader threw ${(error as Error).name} on ${what}: ${(error as Error).message}`,
		);
	}
	// Every record takes at least a byte or two; anything far beyond that was taken from a damaged count.
	const limit = 4 * bytes.length + 4096;
	if (pattern.length > limit || pattern.xs.length > 2 * limit) {
		throw new Error(
			`${module.info.format} reader made ${pattern.length} entries ` +
				`(capacity ${pattern.xs.length}) from ${bytes.length} bytes of ${what}`,
		);
	}
	if (pattern.threads.length > bytes.length + 16) {
		throw new Error(
			`${module.info.format} reader made ${pattern.threads.length} threads from ${bytes.length} bytes of ${what}`,
		);
	}
	for (let i = 0; i < pattern.length; i++) {
		if (pattern.commands[i] > Command.End)
			throw new Error(
				`${module.info.format} reader made command ${pattern.commands[i]} from ${what}`,
			);
	}
}

function expectSafeDetect(bytes: Uint8Array, what: string): void {
	expect(() => detectFormat(bytes, what)).not.toThrow();
}

describe.each(readers.map((module) => ({ format: module.info.format, module })))(
	'$format reader',
	({ module }) => {
		it('survives every sample truncated at many lengths', () => {
			const random = seededRandom(1);
			for (const sample of samples) {
				const cuts = new Set([
					0,
					1,
					2,
					3,
					4,
					8,
					16,
					100,
					255,
					256,
					257,
					511,
					512,
					513,
					515,
					sample.bytes.length - 1,
				]);
				for (let i = 0; i < 20; i++) cuts.add(Math.floor(random() * sample.bytes.length));
				for (const cut of cuts) {
					if (cut < 0 || cut > sample.bytes.length) continue;
					const bytes = sample.bytes.slice(0, cut);
					expectSafeRead(module, bytes, `${sample.name} cut to ${cut} bytes`);
					expectSafeDetect(bytes, sample.name);
				}
			}
		});

		it('survives every sample with bits flipped', () => {
			const random = seededRandom(2);
			for (const sample of samples) {
				for (let round = 0; round < 30; round++) {
					const bytes = sample.bytes.slice();
					const flips = 1 + Math.floor(random() * 16);
					// Half the rounds hit the header, where counts and offsets live.
					const span = round % 2 ? bytes.length : Math.min(bytes.length, 600);
					for (let f = 0; f < flips; f++)
						bytes[Math.floor(random() * span)] ^= 1 << Math.floor(random() * 8);
					expectSafeRead(
						module,
						bytes,
						`${sample.name} with ${flips} bits flipped (round ${round})`,
					);
					expectSafeDetect(bytes, sample.name);
				}
			}
		});

		it('survives headers whose counts and offsets are set to extremes', () => {
			const random = seededRandom(3);
			for (const sample of samples) {
				for (let round = 0; round < 24; round++) {
					const bytes = sample.bytes.slice();
					const at = Math.floor(random() * Math.min(bytes.length - 4, 600));
					if (at < 0) continue;
					const value = [0xff, 0x7f, 0x80, 0x00][round % 4];
					bytes.fill(value, at, at + 4);
					expectSafeRead(module, bytes, `${sample.name} with 4 bytes at ${at} set to ${value}`);
				}
			}
		});

		it('survives random bytes of many sizes', () => {
			const random = seededRandom(4);
			for (let round = 0; round < 80; round++) {
				const size = [0, 1, 3, 64, 512, 515, 2048, 20000][round % 8] + Math.floor(random() * 8);
				const bytes = Uint8Array.from({ length: size }, () => Math.floor(random() * 256));
				expectSafeRead(module, bytes, `${size} random bytes (round ${round})`);
				expectSafeDetect(bytes, 'random');
			}
		});

		it("survives every other format's files", () => {
			for (const sample of samples) expectSafeRead(module, sample.bytes, sample.name);
		});
	},
);
