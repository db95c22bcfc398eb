/**
 * The inputs of the fuzz run (`bench/fuzz.ts`): mutated and generated embroidery files across every
 * readable format, and hostile artworks. Everything comes from one seed, so a run can be repeated.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

import sharp from 'sharp';

import { Command, Pattern, listFormats, writePattern } from '../sandbox/engine';
import { builtStars } from '../test/sandbox/engine/support/builtFiles';
import { fixturesDir } from '../test/support/embroideryFiles';

export interface FuzzFile {
	name: string;
	bytes: Uint8Array;
	/** How it was made, for the report of a crash: `mutated Star.DST: flip, truncate`. */
	origin: string;
}

/** mulberry32: small, fast and good enough to spread mutations. */
export function randomSource(seed: number): Random {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return {
		next,
		int: (min, max) => min + Math.floor(next() * (max - min + 1)),
		pick: (items) => items[Math.floor(next() * items.length)],
	};
}

export interface Random {
	next(): number;
	/** Whole number in [min, max]. */
	int(min: number, max: number): number;
	pick<T>(items: readonly T[]): T;
}

const readableFormats = listFormats().filter((format) => format.readable);

/** A plausible design: runs of stitches, jumps, trims, colour changes and now and then a long move. */
function syntheticPattern(random: Random, stitches: number, longMoves: boolean): Pattern {
	const pattern = new Pattern(stitches + 64);
	let x = 0;
	let y = 0;
	const colours = random.int(1, 8);
	for (let i = 0; i < colours; i++)
		pattern.threads.push({ color: random.int(0, 0xffffff), name: `Colour ${i + 1}` });
	const perColour = Math.max(1, Math.floor(stitches / colours));
	for (let colour = 0; colour < colours; colour++) {
		if (colour > 0) pattern.add(x, y, Command.ColorChange);
		for (let i = 0; i < perColour; i++) {
			const roll = random.next();
			if (roll < 0.01) {
				pattern.add(x, y, Command.Trim);
				const reach = longMoves && random.next() < 0.3 ? 30_000 : 400;
				x = Math.max(-90_000, Math.min(90_000, x + random.int(-reach, reach)));
				y = Math.max(-90_000, Math.min(90_000, y + random.int(-reach, reach)));
				pattern.add(x, y, Command.Jump);
			} else if (roll < 0.012) {
				pattern.add(x, y, Command.Stop);
			} else {
				x += random.int(-60, 60);
				y += random.int(-60, 60);
				pattern.add(x, y, Command.Stitch);
			}
		}
	}
	pattern.add(x, y, Command.End);
	return pattern;
}

/** Alternating jumps of several metres: a few KB that a short-step format would split a thousandfold. */
export function explodingPattern(random: Random, moves: number): Pattern {
	const pattern = new Pattern(moves + 4);
	const reach = random.int(10_000, 16_000);
	pattern.add(0, 0, Command.Stitch);
	for (let i = 0; i < moves; i++)
		pattern.add(i % 2 ? -reach : reach, i % 3 ? reach : -reach, Command.Jump);
	pattern.add(0, 0, Command.End);
	return pattern;
}

/**
 * Singer XXX records of 16-bit moves that all lead the same way, past any embroidery field (and,
 * far enough, past 32 bits).
 */
export function driftingXxx(moves: number): Uint8Array {
	const bytes = new Uint8Array(0x100 + moves * 5 + 6);
	const view = new DataView(bytes.buffer);
	for (let i = 0; i < moves; i++) {
		const at = 0x100 + i * 5;
		bytes[at] = 0x7d;
		view.setInt16(at + 1, 32_000, true);
		view.setInt16(at + 3, -32_000, true);
	}
	const end = 0x100 + moves * 5;
	view.setUint32(0xfc, end, true);
	bytes.set([0x7f, 0x7f, 0x02, 0x14], end);
	return bytes;
}

/** A Tajima DST of `records` short stitches: large sources that reach the pattern's entry ceiling. */
export function longDst(records: number): Uint8Array {
	const bytes = new Uint8Array(512 + records * 3 + 3).fill(0x20, 0, 512);
	bytes.set(Buffer.from('LA:fuzz            \r'));
	for (let i = 0; i < records; i++) {
		bytes[512 + i * 3] = i % 2 ? 0x02 : 0x01;
		bytes[512 + i * 3 + 2] = 0x03;
	}
	bytes.set([0, 0, 0xf3], 512 + records * 3);
	return bytes;
}

const interesting = [0x00, 0xff, 0x7f, 0x80, 0x7d, 0x7e, 0xfe, 0x01, 0xf3, 0x8f, 0x80];
const extremes = [0, 1, 0xff, 0xffff, 0x7fff, 0x8000, 0x7fffffff, 0xffffffff, 0x80000000];

/** One mutation; returns its name. */
function mutate(random: Random, bytes: Uint8Array, seeds: Uint8Array[]): [Uint8Array, string] {
	const copy = (): Uint8Array => new Uint8Array(bytes);
	switch (random.int(0, 7)) {
		case 0: {
			const out = copy();
			for (let n = random.int(1, 24); n > 0 && out.length; n--)
				out[random.int(0, out.length - 1)] ^= 1 << random.int(0, 7);
			return [out, 'bit flips'];
		}
		case 1: {
			const out = copy();
			for (let n = random.int(1, 12); n > 0 && out.length; n--)
				out[random.int(0, out.length - 1)] = random.pick(interesting);
			return [out, 'interesting bytes'];
		}
		case 2: {
			// Header fields: counts, offsets and sizes sit in the first few hundred bytes of every format.
			const out = copy();
			if (out.length < 8) return [out, 'none'];
			const view = new DataView(out.buffer);
			const at = random.int(0, Math.min(out.length, 640) - 4);
			const value = random.pick(extremes);
			if (random.next() < 0.5) view.setUint32(at, value >>> 0, random.next() < 0.5);
			else view.setUint16(at, value & 0xffff, random.next() < 0.5);
			return [out, `header field at ${at}`];
		}
		case 3:
			return [bytes.slice(0, random.int(0, bytes.length)), 'truncated'];
		case 4: {
			// A run of records repeated: long files from short ones, with the structure kept.
			const start = random.int(0, bytes.length);
			const length = Math.min(bytes.length - start, random.int(1, 600));
			const times = random.int(2, 300);
			const chunk = bytes.subarray(start, start + length);
			const out = new Uint8Array(bytes.length + chunk.length * times);
			out.set(bytes.subarray(0, start));
			for (let k = 0; k < times; k++) out.set(chunk, start + k * chunk.length);
			out.set(bytes.subarray(start), start + times * chunk.length);
			return [out, `chunk repeated ${times} times`];
		}
		case 5: {
			const at = random.int(0, bytes.length);
			const noise = new Uint8Array(random.int(1, 256)).map(() => random.int(0, 255));
			const out = new Uint8Array(bytes.length + noise.length);
			out.set(bytes.subarray(0, at));
			out.set(noise, at);
			out.set(bytes.subarray(at), at + noise.length);
			return [out, 'noise inserted'];
		}
		case 6: {
			const other = random.pick(seeds);
			const head = bytes.subarray(0, random.int(0, bytes.length));
			const tail = other.subarray(random.int(0, other.length));
			const out = new Uint8Array(head.length + tail.length);
			out.set(head);
			out.set(tail, head.length);
			return [out, 'spliced with another file'];
		}
		default: {
			const out = copy();
			if (out.length < 2) return [out, 'none'];
			const at = random.int(0, out.length - 2);
			const length = Math.min(out.length - at, random.int(1, 64));
			out.fill(random.pick(interesting), at, at + length);
			return [out, 'byte run overwritten'];
		}
	}
}

/** One to three mutations of `bytes` (splices take their other half from `seeds`), and their names. */
export function mutatedCopy(
	random: Random,
	bytes: Uint8Array,
	seeds: Uint8Array[],
): { bytes: Uint8Array; steps: string } {
	let mutated = bytes;
	const steps: string[] = [];
	for (let n = random.int(1, 3); n > 0; n--) {
		const [next, step] = mutate(random, mutated, seeds);
		mutated = next;
		steps.push(step);
	}
	return { bytes: mutated, steps: steps.join(', ') };
}

export interface Seed {
	name: string;
	extension: string;
	bytes: Uint8Array;
}

export function seedFiles(random: Random): Seed[] {
	const seeds: Seed[] = readdirSync(fixturesDir)
		.filter((name) => !name.endsWith('.json') && !name.endsWith('.md'))
		.map((name) => ({
			name,
			extension: name.split('.').pop()!.toLowerCase(),
			bytes: new Uint8Array(readFileSync(join(fixturesDir, name))),
		}));
	// Formats without a shared sample get Star.DST's design built in their layout.
	for (const { name, bytes } of builtStars())
		seeds.push({ name, extension: name.split('.').pop()!.toLowerCase(), bytes });
	// Every readable format gets written seeds too (PEC and VP3 have no fixture).
	for (const format of readableFormats) {
		if (!format.writable) continue;
		for (const [stitches, longMoves] of [
			[300, false],
			[3000, true],
		] as const) {
			const pattern = syntheticPattern(random, stitches, longMoves);
			seeds.push({
				name: `synthetic-${stitches}.${format.extension}`,
				extension: format.extension,
				bytes: writePattern(pattern, format.format).bytes,
			});
		}
	}
	return seeds;
}

const magicPrefixes = ['#PES0001', '#PES0060', '#PEC0001', '%vsm%\0', 'LA:', '\0\0\0\0'];

/**
 * `count` embroidery files: most mutated from real and written seeds (one to three mutations each),
 * some freshly written designs, some built to explode, drift or overflow.
 */
export function* embroideryFiles(count: number, seed: number): Generator<FuzzFile> {
	const random = randomSource(seed);
	const seeds = seedFiles(random);
	const seedBytes = seeds.map((entry) => entry.bytes);
	const writable = listFormats().filter((format) => format.writable);
	for (let i = 0; i < count; i++) {
		const roll = random.next();
		if (roll < 0.7) {
			const base = random.pick(seeds);
			const { bytes, steps } = mutatedCopy(random, base.bytes, seedBytes);
			yield {
				name: `fuzz-${i}.${base.extension}`,
				bytes,
				origin: `mutated ${base.name}: ${steps}`,
			};
		} else if (roll < 0.85) {
			const format = random.pick(writable);
			const stitches = random.int(1, random.next() < 0.1 ? 60_000 : 4000);
			const bytes = writePattern(
				syntheticPattern(random, stitches, random.next() < 0.5),
				format.format,
			).bytes;
			yield {
				name: `design-${i}.${format.extension}`,
				bytes,
				origin: `written ${format.label}, ${stitches} stitches`,
			};
		} else if (roll < 0.93) {
			const format = random.pick(['xxx', 'vp3'] as const);
			const moves = random.int(1000, 60_000);
			const bytes = writePattern(explodingPattern(random, moves), format).bytes;
			yield {
				name: `explode-${i}.${format}`,
				bytes,
				origin: `${moves} metre-long moves as ${format}`,
			};
		} else if (roll < 0.96) {
			const moves = random.int(4, 80_000);
			yield {
				name: `drift-${i}.xxx`,
				bytes: driftingXxx(moves),
				origin: `${moves} XXX moves of 3.2 m the same way`,
			};
		} else if (roll < 0.965) {
			const records = random.pick([500_000, 1_999_990, 2_100_000]);
			yield { name: `long-${i}.dst`, bytes: longDst(records), origin: `DST of ${records} records` };
		} else {
			const prefix = Buffer.from(random.pick(magicPrefixes), 'latin1');
			const bytes = new Uint8Array(random.int(prefix.length, 4096)).map(() => random.int(0, 255));
			bytes.set(prefix);
			yield {
				name: `noise-${i}.${random.pick(readableFormats).extension}`,
				bytes,
				origin: 'random bytes after a magic',
			};
		}
	}
}

function pngChunk(type: string, data: Uint8Array): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
	return Buffer.concat([head, data, crc]);
}

/** A PNG whose header says `width` x `height`; `idat` is whatever compressed data follows. */
function png(width: number, height: number, colourType: number, idat: Uint8Array): Buffer {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width >>> 0, 0);
	ihdr.writeUInt32BE(height >>> 0, 4);
	ihdr[8] = 8;
	ihdr[9] = colourType;
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', ihdr),
		pngChunk('IDAT', idat),
		pngChunk('IEND', new Uint8Array(0)),
	]);
}

/** A real decompression bomb: a grey PNG of `side` x `side` zeros, a few tens of KB compressed. */
export function pngBomb(side: number): Buffer {
	const rows = Buffer.alloc((side + 1) * side);
	return png(side, side, 0, deflateSync(rows, { level: 9 }));
}

function webpWithCanvas(width: number, height: number, random: Random): Buffer {
	const body = Buffer.alloc(30 + random.int(0, 2000));
	body.write('WEBPVP8X', 0, 'latin1');
	body.writeUInt32LE(10, 8);
	body.writeUIntLE(width - 1, 16, 3);
	body.writeUIntLE(height - 1, 19, 3);
	for (let i = 22; i < body.length; i++) body[i] = random.int(0, 255);
	return Buffer.concat([
		Buffer.from('RIFF', 'latin1'),
		Buffer.from(Uint32Array.of(body.length).buffer),
		body,
	]);
}

function jpegWithFrame(width: number, height: number, random: Random): Buffer {
	const frame = Buffer.from([
		0xff,
		0xc0,
		0,
		17,
		8,
		height >> 8,
		height & 0xff,
		width >> 8,
		width & 0xff,
		3,
		1,
		0x11,
		0,
		2,
		0x11,
		0,
		3,
		0x11,
		0,
	]);
	const scan = Buffer.alloc(random.int(16, 4096)).map(() => random.int(0, 254));
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		frame,
		Buffer.from([0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0]),
		scan,
		Buffer.from([0xff, 0xd9]),
	]);
}

function svg(
	body: string,
	attributes = 'width="200" height="200" viewBox="0 0 200 200"',
	prolog = '',
): Buffer {
	return Buffer.from(
		`<?xml version="1.0"?>\n${prolog}<svg xmlns="http://www.w3.org/2000/svg" ` +
			`xmlns:xlink="http://www.w3.org/1999/xlink" ${attributes}>${body}</svg>`,
	);
}

/** A DOCTYPE of `levels` entities, each ten references to the one before: 10^levels laughs from a few hundred bytes. */
export function billionLaughs(levels: number): string {
	let entities = '<!ENTITY lol0 "lol">';
	for (let i = 1; i <= levels; i++) entities += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
	return `<!DOCTYPE svg [${entities}]>`;
}

/** `count` hostile artworks: huge declared dimensions, decompression bombs, and SVGs that reach out or loop. */
export async function hostileArtworks(count: number, seed: number): Promise<FuzzFile[]> {
	const random = randomSource(seed ^ 0x5eed);
	const logo = await sharp({
		create: { width: 240, height: 160, channels: 4, background: '#ffffff' },
	})
		.composite([
			{
				input: svg('<circle cx="80" cy="80" r="70" fill="#c03030"/>', 'width="160" height="160"'),
				left: 40,
				top: 0,
			},
		])
		.png()
		.toBuffer();
	// Just under the digitiser's 50 megapixels (decoded in full), just over it, and well over.
	const bombs = [2000, 7000, 7100, 9000].map((side) => ({ side, bytes: pngBomb(side) }));
	const makers: Array<(i: number) => FuzzFile> = [
		(i) => {
			const width = random.int(20_000, 0x7fffffff);
			const height = random.int(20_000, 0x7fffffff);
			return {
				name: `huge-${i}.png`,
				bytes: png(width, height, 6, deflateSync(Buffer.alloc(64))),
				origin: `PNG declaring ${width} x ${height}`,
			};
		},
		(i) => {
			const bomb = random.pick(bombs);
			return {
				name: `bomb-${i}.png`,
				bytes: bomb.bytes,
				origin: `PNG bomb ${bomb.side} x ${bomb.side}, ${bomb.bytes.length} bytes`,
			};
		},
		(i) => {
			const side = random.int(9000, 16384);
			return {
				name: `huge-${i}.webp`,
				bytes: webpWithCanvas(side, side, random),
				origin: `WebP canvas ${side} x ${side}`,
			};
		},
		(i) => {
			const side = random.int(9000, 65500);
			return {
				name: `huge-${i}.jpg`,
				bytes: jpegWithFrame(side, side, random),
				origin: `JPEG frame ${side} x ${side}`,
			};
		},
		(i) => {
			const target = random.pick([
				'http://127.0.0.1:9/logo.png',
				'https://example.invalid/x.svg',
				'file:///etc/passwd',
				'file:///proc/self/environ',
				'/etc/hostname',
			]);
			return {
				name: `external-${i}.svg`,
				bytes: svg(
					`<image href="${target}" xlink:href="${target}" width="200" height="200"/><rect ` +
						`width="80" height="80" fill="url(${target}#p)"/>`,
				),
				origin: `SVG referring to ${target}`,
			};
		},
		(i) => ({
			name: `xxe-${i}.svg`,
			bytes: svg(
				'<text x="10" y="50">&xxe;</text><rect width="50" height="50" fill="#123456"/>',
				undefined,
				'<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
			),
			origin: 'SVG with an external entity',
		}),
		(i) => {
			const levels = random.int(3, 9);
			return {
				name: `laughs-${i}.svg`,
				bytes: svg(
					`<text x="0" y="20">&lol${levels};</text><circle cx="50" cy="50" r="40"/>`,
					undefined,
					billionLaughs(levels),
				),
				origin: `SVG entity expansion, ${levels} levels`,
			};
		},
		(i) => ({
			name: `usecycle-${i}.svg`,
			bytes: svg(
				'<defs><g id="a"><use href="#b"/><circle r="20" cx="50" cy="50"/></g><g id="b"><use ' +
					'href="#a"/></g></defs><use href="#a"/><use xlink:href="#c" id="c"/>',
			),
			origin: 'SVG with <use> cycles',
		}),
		(i) => {
			const depth = random.int(6, 12);
			let defs = '<rect id="u0" width="2" height="2" fill="#0a0"/>';
			for (let level = 1; level <= depth; level++)
				defs +=
					`<g id="u${level}">` +
					`${Array.from({ length: 10 }, (_, k) => `<use href="#u${level - 1}" x="${k}"/>`).join('')}</g>`;
			return {
				name: `usefan-${i}.svg`,
				bytes: svg(`<defs>${defs}</defs><use href="#u${depth}"/>`),
				origin: `SVG <use> fan-out 10^${depth}`,
			};
		},
		(i) => {
			const size = random.pick(['1e9', '100000000', '99999999999', '1e308', '-5', 'NaN']);
			return {
				name: `dims-${i}.svg`,
				bytes: svg(
					'<rect width="100%" height="100%" fill="#346"/>',
					`width="${size}" height="${size}"`,
				),
				origin: `SVG of ${size} x ${size}`,
			};
		},
		(i) => ({
			name: `blur-${i}.svg`,
			bytes: svg(
				'<defs><filter id="f"><feTurbulence baseFrequency="0.9" ' +
					'numOctaves="10"/><feGaussianBlur stdDeviation="5000"/></filter></defs><rect ' +
					'width="20000" height="20000" filter="url(#f)"/>',
				'width="20000" height="20000"',
			),
			origin: 'SVG with an expensive filter on a large canvas',
		}),
		(i) => ({
			name: `embedded-${i}.svg`,
			bytes: svg(
				`<image width="200" height="200" href="data:image/png;base64,${bombs[1].bytes.toString('base64')}"/>`,
			),
			origin: 'SVG embedding a PNG bomb',
		}),
		(i) => {
			const depth = random.int(1000, 20_000);
			return {
				name: `deep-${i}.svg`,
				bytes: svg(`${'<g>'.repeat(depth)}<rect width="10" height="10"/>${'</g>'.repeat(depth)}`),
				origin: `SVG nested ${depth} groups deep`,
			};
		},
		(i) => {
			let bytes = Buffer.from(
				random.next() < 0.5 ? logo : svg('<path d="M10 10 L190 30 L100 190 Z" fill="#2a6"/>'),
			);
			const steps: string[] = [];
			for (let n = random.int(1, 3); n > 0; n--) {
				const [next, step] = mutate(random, bytes, [logo]);
				bytes = Buffer.from(next);
				steps.push(step);
			}
			const type = bytes[0] === 0x89 ? 'png' : 'svg';
			return {
				name: `mutated-${i}.${type}`,
				bytes,
				origin: `mutated artwork: ${steps.join(', ')}`,
			};
		},
	];
	return Array.from({ length: count }, (_, i) => makers[i % makers.length](i));
}
