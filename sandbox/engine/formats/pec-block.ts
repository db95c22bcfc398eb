import { Command, Pattern, type Thread } from '../pattern';
import { normaliseForWriter, patternBounds } from '../normalise';
import { snapToChart } from '../threads/chart-snapping';
import { repeatedThreadsAsStops, threadBlocks } from '../threads/colour-blocks';
import { pecThreadChart } from '../threads/pec-threads';
import { ByteBuilder, ByteCursor } from './binary-io';
import { UnwritablePatternError } from '../errors';
import type { HoopLimit } from './format';
import { pecIconHeight, pecIconStride, writePecIcons } from './pec-graphics';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch: STITCH, Jump: JUMP, Trim: TRIM, ColorChange: COLOR_CHANGE, End: END } = Command;

/**
 * The PEC block: what Brother machines actually sew. It is the whole of a .pec file (after its
 * 8-byte signature) and the tail of every .pes file. Layout from the block's start:
 *   0   "LA:" + 16-character label + CR, padding, 0xFF 0x00, icon stride and height
 *   48  colour count - 1, then one PEC chart code per colour block, padded with spaces to 512
 *   512 stitch section: 2 bytes, 24-bit section length, 3 fixed bytes, width, height, 2 words
 *   528 stitches, then 0xFF; then 1 + colour-count one-bit icons.
 */

const colourListOffset = 48;
const stitchSectionOffset = 512;
const stitchesOffset = 528;
/** Codes ride in one byte and 0xFF means "none", so 255 colour blocks is the most a PEC can hold. */
const maxPecColourBlocks = 255;
/** Moves are 12-bit signed numbers. */
const maxPecMove = 2047;

const flagLong = 0x80;
const flagTrim = 0x20;
const flagJump = 0x10;
const endMarker = 0xff;
const colourChangeMarker = 0xfe;
const colourChangeSecond = 0xb0;

/** The machine shows this name; the pattern model carries no design name. */
export const defaultPecLabel = 'Untitled';

/**
 * The largest hoop of a PES v1 header, which names 100 x 100 or 130 x 180 mm only (pyembroidery's PesWriter
 * writes the same two); bigger Brother hoops need a later PES version than the one written here. A bare PEC
 * file names no hoop; it is the same stitch block Brother machines read, so it is held to the same hoop.
 */
export const pesV1LargestHoop: HoopLimit = {
	widthMm: 130,
	heightMm: 180,
	description: 'the 130 x 180 mm hoop, the largest a PES v1 file declares',
};

/**
 * The threads of each colour block. A PES thread list with an entry per block maps one to one;
 * a shorter list gives one entry per distinct chart code, in order of first use (how PE-Design
 * writes it); without a list the PEC chart names the colours.
 */
function blockThreads(codes: Uint8Array, listed: Thread[]): Thread[] {
	if (listed.length === 0) return [...codes].map((code) => pecThreadChart.threadForCode(code));
	if (listed.length >= codes.length) return listed.slice(0, codes.length);
	const byCode = new Map<number, Thread>();
	let next = 0;
	return [...codes].map((code) => {
		let thread = byCode.get(code);
		if (!thread) {
			thread = next < listed.length ? listed[next++] : pecThreadChart.threadForCode(code);
			byCode.set(code, thread);
		}
		return thread;
	});
}

function signed12(high: number, low: number): number {
	const value = ((high & 0x0f) << 8) | low;
	return value > 0x7ff ? value - 0x1000 : value;
}

function signed7(value: number): number {
	return value > 63 ? value - 128 : value;
}

/** Read the PEC block starting at `start`; `listedThreads` come from a PES header when it has them. */
export function readPecBlock(
	bytes: Uint8Array,
	start: number,
	formatLabel: string,
	listedThreads: Thread[] = [],
): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, formatLabel);
	cursor.seek(start);
	if (cursor.latin1(3) !== 'LA:') cursor.fail('the PEC block has no "LA:" label');
	cursor.seek(start + colourListOffset);
	const lastColour = cursor.u8();
	const codes = cursor.slice(lastColour === 0xff ? 0 : lastColour + 1);
	cursor.seek(start + stitchesOffset);

	const end = bytes.length;
	// Every stitch takes at least 2 bytes, so the file size bounds the allocation.
	const pattern = new Pattern(Math.max(16, Math.min((end - cursor.position) >> 1, 1 << 22)));
	let x = 0;
	let y = 0;
	let at = cursor.position;
	for (;;) {
		if (at >= end) cursor.fail('the stitches end without the end-of-design marker');
		const first = bytes[at];
		if (first === endMarker) break;
		if (first === colourChangeMarker && bytes[at + 1] === colourChangeSecond) {
			pattern.add(x, y, COLOR_CHANGE);
			at += 3;
			continue;
		}
		if (at + 1 >= end) cursor.fail('a stitch is cut off at the end of the file');
		let trim = false;
		let jump = false;
		let dx: number;
		if (first & flagLong) {
			trim = (first & flagTrim) !== 0;
			jump = (first & flagJump) !== 0;
			dx = signed12(first, bytes[at + 1]);
			at += 2;
		} else {
			dx = signed7(first);
			at += 1;
		}
		if (at >= end) cursor.fail('a stitch is cut off at the end of the file');
		const second = bytes[at];
		let dy: number;
		if (second & flagLong) {
			if (at + 1 >= end) cursor.fail('a stitch is cut off at the end of the file');
			trim ||= (second & flagTrim) !== 0;
			jump ||= (second & flagJump) !== 0;
			dy = signed12(second, bytes[at + 1]);
			at += 2;
		} else {
			dy = signed7(second);
			at += 1;
		}
		x += dx;
		y += dy;
		if (trim) pattern.add(x - dx, y - dy, TRIM);
		if (trim && dx === 0 && dy === 0) continue;
		pattern.add(x, y, trim || jump ? JUMP : STITCH);
	}
	pattern.add(x, y, END);
	pattern.threads = blockThreads(codes, listedThreads);
	repeatedThreadsAsStops(pattern);
	return pattern;
}

/** Whether `start` holds something shaped like a PEC block (label and a plausible colour list). */
export function looksLikePecBlock(bytes: Uint8Array, start: number): boolean {
	if (start < 0 || start + stitchesOffset > bytes.length) return false;
	return bytes[start] === 0x4c && bytes[start + 1] === 0x41 && bytes[start + 2] === 0x3a;
}

class PecStitchEncoder {
	private x = 0;
	private y = 0;
	private colourToggle = 2;

	constructor(private readonly out: ByteBuilder) {}

	private axis(value: number, flags: number, long: boolean): void {
		if (!long && value >= -64 && value <= 63) {
			this.out.u8(value & 0x7f);
			return;
		}
		const coded = (value & 0x0fff) | ((flagLong | flags) << 8);
		this.out.u8(coded >> 8);
		this.out.u8(coded & 0xff);
	}

	/** Move to (x, y); the caller has already split moves to at most `maxPecMove` per axis. */
	moveTo(x: number, y: number, kind: 'stitch' | 'jump' | 'trim'): void {
		const flags = kind === 'trim' ? flagTrim : kind === 'jump' ? flagJump : 0;
		const long = kind !== 'stitch';
		this.axis(x - this.x, flags, long);
		this.axis(y - this.y, flags, long);
		this.x = x;
		this.y = y;
	}

	trimHere(): void {
		this.moveTo(this.x, this.y, 'trim');
	}

	colourChange(): void {
		this.out.u8(colourChangeMarker);
		this.out.u8(colourChangeSecond);
		this.out.u8(this.colourToggle);
		this.colourToggle = this.colourToggle === 2 ? 1 : 2;
	}

	end(): void {
		this.out.u8(endMarker);
	}
}

function encodeStitches(out: ByteBuilder, pattern: Pattern): void {
	const encoder = new PecStitchEncoder(out);
	const { xs, ys, commands } = pattern;
	let trimPending = false;
	for (let i = 0; i < pattern.length; i++) {
		const command = commands[i];
		if (command === END) break;
		switch (command) {
			case STITCH:
				if (trimPending) encoder.trimHere();
				trimPending = false;
				encoder.moveTo(xs[i], ys[i], 'stitch');
				break;
			case JUMP:
				encoder.moveTo(xs[i], ys[i], trimPending ? 'trim' : 'jump');
				trimPending = false;
				break;
			case TRIM:
				trimPending = true;
				break;
			default:
				if (trimPending) encoder.trimHere();
				trimPending = false;
				encoder.colourChange();
		}
	}
	if (trimPending) encoder.trimHere();
	encoder.end();
}

/**
 * Append a PEC block for `pattern` (normalised: no move beyond `maxPecMove`) to `out`. `codes` holds the PEC chart code of each colour block
 * (blocks start at colour changes and stops; a stop repeats the previous code).
 */
export function writePecBlock(
	out: ByteBuilder,
	pattern: Pattern,
	codes: number[],
	label: string,
): void {
	if (codes.length > maxPecColourBlocks) {
		throw new UnwritablePatternError(
			`A PEC block holds at most ${maxPecColourBlocks} colour blocks; this design has ${codes.length}. Merge colours before converting.`,
		);
	}
	const start = out.length;
	out.ascii('LA:');
	out.ascii(label.slice(0, 8).padEnd(16, ' '));
	out.u8(0x0d);
	out.fill(0x20, 12);
	out.u8(0xff);
	out.u8(0x00);
	out.u8(pecIconStride);
	out.u8(pecIconHeight);
	out.fill(0x20, 12);
	out.u8(codes.length - 1);
	out.bytes(codes);
	out.fill(0x20, start + stitchSectionOffset - out.length);

	const extents = patternBounds(pattern);
	const section = out.length;
	out.u16le(0);
	out.u24le(0);
	out.bytes([0x31, 0xff, 0xf0]);
	out.u16le(extents.maxX - extents.minX);
	out.u16le(extents.maxY - extents.minY);
	out.u16le(0x1e0);
	out.u16le(0x1b0);
	encodeStitches(out, pattern);
	out.patchU24le(section + 2, out.length - section);
	writePecIcons(out, pattern, extents, codes.length);
}

export interface PecReadyPattern {
	pattern: Pattern;
	/** PEC chart code of each colour block. */
	codes: number[];
	warnings: string[];
}

/** Split moves to the PEC range and give every colour block its nearest PEC chart code. */
export function prepareForPec(source: Pattern, formatLabel: string): PecReadyPattern {
	const normalised = normaliseForWriter(source, {
		maxStitch: maxPecMove,
		maxJump: maxPecMove,
		label: formatLabel,
	});
	const { codes, warnings } = snapToChart(
		threadBlocks(normalised.pattern),
		pecThreadChart,
		formatLabel,
	);
	return { pattern: normalised.pattern, codes, warnings: [...normalised.warnings, ...warnings] };
}
