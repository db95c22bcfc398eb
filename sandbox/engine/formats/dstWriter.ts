/** Writes Tajima DST: the header with its counts, extents and thread lines, then one 3-byte record per entry. */
import {
	countCommands,
	normaliseForWriter,
	patternBounds,
	type NormaliseOptions,
} from '../normalise';
import { Command, type Pattern, type Thread } from '../pattern';
import {
	endMask,
	flagColourChange,
	flagJump,
	headerSize,
	jumpsPerTrim,
	maxStep,
	xDigits,
	yDigits,
	type Digit,
} from './dstReader';
import type { WriteResult } from './format';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, ColorChange, End } = Command;

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

/**
 * The fields a Tajima header starts with (DST, TBF): the label, `records` and the colour changes, the
 * extents (+Y up, so it is the extent above the origin) and where the design ends.
 */
export function tajimaHeaderFields(records: number, pattern: Pattern): string {
	const bounds = patternBounds(pattern);
	return (
		'LA:' +
		'Untitled'.padEnd(16, ' ') +
		'\r' +
		field('ST', records, 7) +
		field('CO', countCommands(pattern, ColorChange), 3) +
		field('+X', Math.max(0, bounds.maxX), 5) +
		field('-X', Math.max(0, -bounds.minX), 5) +
		field('+Y', Math.max(0, -bounds.minY), 5) +
		field('-Y', Math.max(0, bounds.maxY), 5) +
		field('AX', pattern.lastX(), 5, true) +
		field('AY', -pattern.lastY(), 5, true)
	);
}

export function writeDst(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, tajimaWriterOptions('DST'));
	let header =
		tajimaHeaderFields(pattern.length, pattern) +
		field('MX', 0, 5, true) +
		field('MY', 0, 5, true) +
		'PD:******\r';
	const threadLines = fitThreadLines(pattern.threads, headerSize - 1 - header.length);
	header += threadLines.join('');
	if (threadLines.length < pattern.threads.length) {
		warnings.push(
			`Only ${threadLines.length} of ${pattern.threads.length} thread colours fit in the DST ` +
				`header; the rest are left out.`,
		);
	}
	header = (header + '\x1a').padEnd(headerSize, ' ');

	// Filled by hand, not through ByteBuilder: bench:engine measured DST writes up to 2x slower through it.
	const out = new Uint8Array(headerSize + pattern.length * 3);
	for (let i = 0; i < headerSize; i++) out[i] = header.charCodeAt(i);
	const end = encodeTajimaRecords(pattern, out, headerSize);
	return { bytes: out.subarray(0, end), warnings };
}

/** DST's limits for `normaliseForWriter`: its records and its trims, for every writer of Tajima records. */
export function tajimaWriterOptions(label: string): NormaliseOptions {
	return {
		maxStitch: maxStep,
		maxJump: maxStep,
		trimAsJumps: jumpsPerTrim,
		stopAsColourChange: true,
		label,
	};
}

/**
 * Writes a normalised pattern's entries as Tajima records into `out` from `offset` (room for one
 * record per entry), and returns the offset after the last: DST after its header, TAP without one.
 */
export function encodeTajimaRecords(pattern: Pattern, out: Uint8Array, offset: number): number {
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
	return offset;
}
