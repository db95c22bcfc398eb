/**
 * Tajima DST: a 512-byte text header, then 3-byte records holding a move of up to ±121
 * per axis in balanced ternary (y pointing up), plus jump / colour-change / end flags.
 * Machines trim when they meet a run of jumps, so a trim is written as three jumps.
 */
import { countCommands, normaliseForWriter, patternBounds, recordsBuilder } from '../normalise';
import { Command, threadOf } from '../pattern';
import type { Pattern, Thread } from '../pattern';
import type { FormatModule, WriteResult } from './format';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, ColorChange, End } = Command;

const headerSize = 512;
const maxStep = 121;
/** Jumps in a row that Tajima machines (at their usual setting) turn into a trim. */
const jumpsPerTrim = 3;

const flagJump = 0x80;
const flagColourChange = 0x40;
const endMask = 0xf3;
const colourChangeMask = 0xc3;
const sequinMask = 0x43;
const jumpMask = 0x83;

/** Ternary digit weights and the (byte, bit) of their +/- flags, per axis (y is up in DST). */
const xDigits = [
	{ weight: 81, byte: 2, plus: 2, minus: 3 },
	{ weight: 27, byte: 1, plus: 2, minus: 3 },
	{ weight: 9, byte: 0, plus: 2, minus: 3 },
	{ weight: 3, byte: 1, plus: 0, minus: 1 },
	{ weight: 1, byte: 0, plus: 0, minus: 1 },
];
const yDigits = [
	{ weight: 81, byte: 2, plus: 5, minus: 4 },
	{ weight: 27, byte: 1, plus: 5, minus: 4 },
	{ weight: 9, byte: 0, plus: 5, minus: 4 },
	{ weight: 3, byte: 1, plus: 7, minus: 6 },
	{ weight: 1, byte: 0, plus: 7, minus: 6 },
];

type Digit = (typeof xDigits)[number];

/** Encodes -121..121 as the three bytes' bits, packed b0 | b1 << 8 | b2 << 16. */
function encodeAxisTable(digits: Digit[]): Int32Array {
	const table = new Int32Array(2 * maxStep + 1);
	for (let value = -maxStep; value <= maxStep; value++) {
		let rest = value;
		let packed = 0;
		for (const digit of digits) {
			const half = (digit.weight - 1) / 2;
			if (rest > half) {
				packed |= 1 << (digit.byte * 8 + digit.plus);
				rest -= digit.weight;
			} else if (rest < -half) {
				packed |= 1 << (digit.byte * 8 + digit.minus);
				rest += digit.weight;
			}
		}
		table[value + maxStep] = packed;
	}
	return table;
}

const encodeX = encodeAxisTable(xDigits);
const encodeY = encodeAxisTable(yDigits);

function decodeAxis(b0: number, b1: number, b2: number, digits: Digit[]): number {
	const bytes = [b0, b1, b2];
	let value = 0;
	for (const digit of digits) {
		const byte = bytes[digit.byte];
		if (byte & (1 << digit.plus)) value += digit.weight;
		if (byte & (1 << digit.minus)) value -= digit.weight;
	}
	return value;
}

/** Each byte's share of the x and y move, so decoding a record is six table lookups. */
const xFromByte0 = new Int8Array(256);
const xFromByte1 = new Int8Array(256);
const xFromByte2 = new Int8Array(256);
const yFromByte0 = new Int8Array(256);
const yFromByte1 = new Int8Array(256);
const yFromByte2 = new Int8Array(256);
for (let byte = 0; byte < 256; byte++) {
	xFromByte0[byte] = decodeAxis(byte, 0, 0, xDigits);
	xFromByte1[byte] = decodeAxis(0, byte, 0, xDigits);
	xFromByte2[byte] = decodeAxis(0, 0, byte, xDigits);
	yFromByte0[byte] = decodeAxis(byte, 0, 0, yDigits);
	yFromByte1[byte] = decodeAxis(0, byte, 0, yDigits);
	yFromByte2[byte] = decodeAxis(0, 0, byte, yDigits);
}

/** The thread colours of the extended header; the standard fields are recomputed, not trusted. */
function headerThreads(bytes: Uint8Array): Thread[] {
	const threads: Thread[] = [];
	let text = '';
	for (let i = 0; i < headerSize; i++) text += String.fromCharCode(bytes[i]);
	for (const line of text.split(/[\r\n\x1a]/)) {
		const match = /^\s*TC:(.*)$/.exec(line);
		const thread = match ? parseThreadLine(match[1]) : null;
		if (thread) threads.push(thread);
	}
	return threads;
}

/** `TC:#RRGGBB,description,catalog`: the thread lines of the extended header. */
function parseThreadLine(value: string): Thread | null {
	const [hex, name, catalog] = value.split(',').map((part) => part.trim());
	const match = /^#?([0-9a-fA-F]{6})$/.exec(hex ?? '');
	if (!match) return null;
	return threadOf({ color: parseInt(match[1], 16), name, catalogNumber: catalog });
}

function readDst(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'DST');
	// A run of three or more jumps is the machine's trim, placed where the run began.
	let runLength = 0;
	let runStart = 0;
	let runX = 0;
	let runY = 0;

	let sequinMode = false;
	for (let offset = headerSize; offset + 3 <= bytes.length; offset += 3) {
		const b0 = bytes[offset];
		const b1 = bytes[offset + 1];
		const b2 = bytes[offset + 2];
		if ((b2 & endMask) === endMask) break;
		const dx = xFromByte0[b0] + xFromByte1[b1] + xFromByte2[b2];
		const dy = -(yFromByte0[b0] + yFromByte1[b1] + yFromByte2[b2]);
		if ((b2 & colourChangeMask) === colourChangeMask) {
			runLength = 0;
			builder.jump(dx, dy);
			builder.colourChange();
		} else if ((b2 & sequinMask) === sequinMask) {
			// Sequins are not modelled: the mode switch and the sequin drops become plain moves.
			runLength = 0;
			sequinMode = !sequinMode;
			builder.jump(dx, dy);
		} else if ((b2 & jumpMask) === jumpMask) {
			if (sequinMode) {
				builder.jump(dx, dy);
				continue;
			}
			if (runLength === 0) {
				runStart = builder.pattern.length;
				runX = builder.x;
				runY = builder.y;
			}
			runLength++;
			builder.jump(dx, dy);
			if (runLength === jumpsPerTrim) builder.trimBefore(runStart, runX, runY);
		} else {
			runLength = 0;
			builder.stitch(dx, dy);
		}
	}
	const pattern = builder.finish();
	pattern.threads = headerThreads(bytes);
	return pattern;
}

/** Records before the END code all carry DST's two always-set bits; a header field or two confirms it. */
function looksLikeDst(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize) return false;
	const start = String.fromCharCode(...bytes.subarray(0, 128));
	const labelled = start.startsWith('LA:');
	const hasCountFields = /ST:[ \d]{1,9}\r/.test(start) && /CO:[ \d]{1,5}\r/.test(start);
	if (!labelled && !hasCountFields) return false;
	const lastRecord = Math.min(bytes.length, headerSize + 3 * 4096);
	for (let offset = headerSize; offset + 3 <= lastRecord; offset += 3) {
		const b2 = bytes[offset + 2];
		if ((b2 & 0x03) !== 0x03) return false;
		if ((b2 & endMask) === endMask) break;
	}
	return true;
}

function field(key: string, value: number, width: number, signed = false): string {
	const clamped = Math.min(Math.abs(Math.round(value)), 10 ** width - 1);
	const sign = signed ? (value < 0 ? '-' : '+') : '';
	return `${key}:${sign}${String(clamped).padStart(width, ' ')}\r`;
}

/** Thread text must not break the header's line and comma structure. */
function headerText(text: string | undefined, maxLength: number): string {
	return (text ?? '')
		.replace(/[\r\n\x1a,]/g, ' ')
		.replace(/[^\x20-\x7e]/g, '?')
		.trim()
		.slice(0, maxLength);
}

function threadLine(thread: Thread, nameLength: number, catalogLength: number): string {
	const hex = (thread.color & 0xffffff).toString(16).padStart(6, '0');
	return `TC:#${hex},${headerText(thread.name, nameLength)},${headerText(thread.catalogNumber, catalogLength)}\r`;
}

/** Thread lines for the header's free space: names are shortened, then dropped, before colours are. */
function fitThreadLines(threads: Thread[], room: number): string[] {
	for (const [nameLength, catalogLength] of [
		[24, 12],
		[12, 12],
		[0, 12],
		[0, 0],
	]) {
		const lines = threads.map((thread) => threadLine(thread, nameLength, catalogLength));
		if (lines.reduce((total, line) => total + line.length, 0) <= room) return lines;
	}
	const lines: string[] = [];
	for (const thread of threads) {
		const line = threadLine(thread, 0, 0);
		if (line.length > room) break;
		lines.push(line);
		room -= line.length;
	}
	return lines;
}

function writeDst(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, {
		maxStitch: maxStep,
		maxJump: maxStep,
		trimAsJumps: jumpsPerTrim,
		stopAsColourChange: true,
		label: 'DST',
	});
	const bounds = patternBounds(pattern);
	const endX = pattern.lastX();
	const endY = pattern.lastY();
	let header =
		'LA:' +
		'Untitled'.padEnd(16, ' ') +
		'\r' +
		field('ST', pattern.length, 7) +
		field('CO', countCommands(pattern, ColorChange), 3) +
		field('+X', Math.max(0, bounds.maxX), 5) +
		field('-X', Math.max(0, -bounds.minX), 5) +
		field('+Y', Math.max(0, -bounds.minY), 5) +
		field('-Y', Math.max(0, bounds.maxY), 5) +
		field('AX', endX, 5, true) +
		field('AY', -endY, 5, true) +
		field('MX', 0, 5, true) +
		field('MY', 0, 5, true) +
		'PD:******\r';
	const threadLines = fitThreadLines(pattern.threads, headerSize - 1 - header.length);
	header += threadLines.join('');
	if (threadLines.length < pattern.threads.length) {
		warnings.push(
			`Only ${threadLines.length} of ${pattern.threads.length} thread colours fit in the DST header; the rest are left out.`,
		);
	}
	header = (header + '\x1a').padEnd(headerSize, ' ');

	// Filled by hand, not through ByteBuilder: bench:engine measured DST writes up to 2x slower through it.
	const out = new Uint8Array(headerSize + pattern.length * 3);
	for (let i = 0; i < headerSize; i++) out[i] = header.charCodeAt(i);
	let offset = headerSize;
	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		let packed: number;
		if (command === Stitch || command === Jump) {
			const nx = pattern.xs[i];
			const ny = pattern.ys[i];
			packed = encodeX[nx - x + maxStep] | encodeY[y - ny + maxStep] | (0x03 << 16);
			if (command === Jump) packed |= flagJump << 16;
			x = nx;
			y = ny;
		} else if (command === ColorChange) {
			packed = (flagJump | flagColourChange | 0x03) << 16;
		} else if (command === End) {
			packed = endMask << 16;
		} else {
			continue;
		}
		out[offset++] = packed & 0xff;
		out[offset++] = (packed >> 8) & 0xff;
		out[offset++] = (packed >> 16) & 0xff;
	}
	return { bytes: out.subarray(0, offset), warnings };
}

export const dstFormat: FormatModule = {
	info: {
		format: 'dst',
		label: 'Tajima DST',
		extension: 'dst',
		mimeType: 'application/x-dst',
		readable: true,
		writable: true,
		warning:
			'DST carries no thread colours that machines use: up to 29 colours (with names while room allows) are kept in the extended header, which most software ignores. Trims are written as three jumps, which Tajima-compatible machines treat as a trim (three or more jumps in a row read back as one); stops become colour changes.',
	},
	detect: looksLikeDst,
	detectionStrength: 3,
	read: readDst,
	write: writeDst,
	// DST names no hoop, and the Tajima-compatible machines that read it range from single heads to frames
	// of many sizes: no common limit is known, so no hoop warning.
	largestHoop: null,
};
