import {
	detectFormat,
	identifyFormat,
	listFormats,
	readPattern,
	writePattern,
} from '../../../sandbox/engine';
import { UnreadableSourceError } from '../../../sandbox/engine/errors';
import { findModule } from '../../../sandbox/engine/registry';
import { fixture } from '../../support/embroideryFiles';
import { Command, Pattern } from '../../../sandbox/engine/pattern';
import { fixtureNames, loadFixture } from './support/referenceDecoding';

const registered = new Set(listFormats().map((format) => format.format));
const fixtures = fixtureNames
	.map((name) => ({ name, format: name.split('.').pop()!.toLowerCase() }))
	.filter(({ format }) => registered.has(format));
const otherExtension = (format: string) => (format === 'exp' ? 'design.dst' : 'design.exp');
const strengthOf = (format: string) => findModule(format)!.detectionStrength;
const labelOf = (format: string) => findModule(format)!.info.label;

describe('detectFormat', () => {
	it.each(fixtures)('recognises $name by its content alone', ({ name, format }) => {
		expect(detectFormat(loadFixture(name).bytes)).toBe(format);
	});

	it.each(fixtures.filter(({ format }) => strengthOf(format) === 3))(
		'reads $name by its magic whatever its name, warning where the name says another format',
		({ name, format }) => {
			const bytes = loadFixture(name).bytes;
			for (const misnamed of [otherExtension(format), 'design.u01', 'design.xxx']) {
				const identified = identifyFormat(bytes, misnamed);
				expect(identified.format).toBe(format);
				expect(identified.warning).toMatch(
					new RegExp(`^${misnamed} is named as .+, but its content is ${labelOf(format)}`),
				);
			}
			expect(identifyFormat(bytes, `design.${format}`).warning).toBeNull();
			expect(identifyFormat(bytes, 'design.jpg').warning).toBeNull();
		},
	);

	it.each(fixtures.filter(({ format }) => strengthOf(format) < 3))(
		'refuses $name, which has no magic, when its name says another format',
		({ name, format }) => {
			const bytes = loadFixture(name).bytes;
			const misnamed = format === 'exp' ? 'design.dst' : 'design.exp';
			const identified = identifyFormat(bytes, misnamed);
			expect(identified.format).toBeNull();
			expect(identified.refusal).toMatch(
				new RegExp(
					`name says .+, but its content is not .+ \\(it would read as ${labelOf(format)}\\)`,
				),
			);
			// Named as no format at all (a colour list's .inf, an unread format's .t03): refused, never guessed.
			for (const unnamed of ['design.jpg', 'design'])
				expect(identifyFormat(bytes, unnamed).refusal).toMatch(
					new RegExp(
						`has no signature and could be .*${labelOf(format)}.*extension \\(.*\\.${format}\\b`,
					),
				);
		},
	);

	it.each(['Star.BRO', 'Star.SHV', 'Star.STX', 'Star.dat'])(
		'never reads %s, which EXP could take record by record, as EXP',
		(name) => {
			const bytes = fixture(name);
			const own = name.split('.').pop()!.toLowerCase();
			expect(detectFormat(bytes, name)).toBe(registered.has(own) ? own : null);
			// Without a name that names its format, only a magic claims the file.
			const byContent = registered.has(own) && strengthOf(own) === 3 ? own : null;
			expect(detectFormat(bytes, 'design')).toBe(byContent);
			// Named as EXP: a magic still claims the file; without one the file is refused, never read as EXP.
			const namedExp = identifyFormat(bytes, 'design.exp');
			if (registered.has(own) && strengthOf(own) === 3) expect(namedExp.format).toBe(own);
			else expect(namedExp.refusal).toMatch(/name says Melco EXP/);
		},
	);

	it('refuses a file that fits no format, saying so', () => {
		const text = new TextEncoder().encode('Hello, not a design.\n'.repeat(40));
		expect(identifyFormat(text, 'notes.txt')).toEqual({
			format: null,
			refusal: 'its content fits none of the formats this service reads',
		});
	});

	it('lets the name decide between two formats without a magic that both read the file whole', () => {
		// Toyota 100 stitch records [0x61, 0, dx, dy] zigzag, then its end record: as EXP, plain stitches.
		const zigzag = Array.from({ length: 200 }, (_, i) =>
			i % 2 ? [0x61, 0, 0x28, 0x1e] : [0x61, 0, 0xa8, 0x9e],
		);
		const bytes = Uint8Array.from([...zigzag.flat(), 0x1f, 0, 0, 0]);
		expect(identifyFormat(bytes, 'zigzag.exp')).toEqual({ format: 'exp', warning: null });
		expect(identifyFormat(bytes, 'zigzag.100')).toEqual({ format: '100', warning: null });
		expect(identifyFormat(bytes, 'zigzag').refusal).toBe(
			'its content has no signature and could be Toyota 100 or Melco EXP, but its name does not say so: ' +
				"give the file its machine's extension (.100 or .exp)",
		);
		expect(identifyFormat(bytes, 'zigzag.dst').refusal).toBe(
			'its name says Tajima DST, but its content is not Tajima DST (it would read as Toyota 100 or Melco EXP)',
		);
	});

	it('reads a DST mislabelled as .exp as the DST it is', () => {
		const bytes = loadFixture('Star.DST').bytes;
		const format = detectFormat(bytes, 'Star.exp');
		expect(format).toBe('dst');
		expect(readPattern(bytes).length).toBe(readPattern(bytes, 'dst').length);
	});

	it('recognises what every writer produces', () => {
		const pattern = new Pattern();
		for (let i = 0; i < 200; i++)
			pattern.add((i % 20) * 10, Math.floor(i / 20) * 10, Command.Stitch);
		pattern.add(0, 0, Command.ColorChange);
		pattern.add(50, 50, Command.Stitch);
		pattern.threads = [{ color: 0xff0000 }, { color: 0x0000ff }];
		for (const { format, writable } of listFormats()) {
			if (!writable) continue;
			expect([format, detectFormat(writePattern(pattern, format).bytes)]).toEqual([format, format]);
		}
	});

	it('recognises nothing in files that are not embroidery', () => {
		const png = new Uint8Array([
			0x89,
			0x50,
			0x4e,
			0x47,
			0x0d,
			0x0a,
			0x1a,
			0x0a,
			...new Array(600).fill(0x11),
		]);
		const text = new TextEncoder().encode(
			'Hello, this is a plain text file and not a design.\n'.repeat(40),
		);
		let seed = 7;
		const random = Uint8Array.from({ length: 4096 }, () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed >> 16;
		});
		expect(detectFormat(png, 'artwork.dst')).toBeNull();
		expect(detectFormat(text, 'notes.exp')).toBeNull();
		expect(detectFormat(random, 'noise.u01')).toBeNull();
		expect(detectFormat(new Uint8Array(0), 'empty.dst')).toBeNull();
	});

	it.each(fixtures)(
		'reads $name the same from a view into a larger buffer (as Node pools small files)',
		({ name, format }) => {
			const bytes = loadFixture(name).bytes;
			const pool = new Uint8Array(bytes.length + 20).fill(0xee);
			pool.set(bytes, 7);
			const view = Buffer.from(pool.buffer, 7, bytes.length);
			expect(detectFormat(view)).toBe(format);
			const direct = readPattern(bytes, format);
			const viaView = readPattern(view, format);
			expect(Array.from(viaView.xs.subarray(0, viaView.length))).toEqual(
				Array.from(direct.xs.subarray(0, direct.length)),
			);
			expect(Array.from(viaView.ys.subarray(0, viaView.length))).toEqual(
				Array.from(direct.ys.subarray(0, direct.length)),
			);
			expect(viaView.threads).toEqual(direct.threads);
		},
	);

	it('fails a file no reader accepts with unreadable_source and a clear message', () => {
		const text = new TextEncoder().encode('not a design at all'.repeat(10));
		expect(() => readPattern(text)).toThrow(UnreadableSourceError);
		expect(() => readPattern(text)).toThrow(
			/not an embroidery machine file.*readable: .*Tajima DST/,
		);
		try {
			readPattern(text);
		} catch (error) {
			expect((error as UnreadableSourceError).code).toBe('unreadable_source');
		}
	});
});
