/** Writes Barudan U01: the header with its extents, then 3-byte records, colour changes as needle changes. */
import { normaliseForWriter, patternBounds } from '../normalise';
import { Command, type Pattern } from '../pattern';
import { ByteBuilder } from './binaryIo';
import type { WriteResult } from './format';
import {
	downFlag,
	endCode,
	firstNeedleCode,
	headerSize,
	jumpCode,
	leftFlag,
	maxStep,
	needles,
	recordFlag,
	stitchCode,
	stopCode,
	trimCode,
} from './u01Reader';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, Stop, ColorChange, End } = Command;

/** Header extents are signed 16-bit; a design beyond ±3.2 m is clamped there rather than wrapped. */
function int16(value: number): number {
	return Math.max(-32768, Math.min(32767, value));
}

function record(out: ByteBuilder, code: number, dx: number, dy: number): void {
	const flags = recordFlag | (dy >= 0 ? downFlag : 0) | (dx <= 0 ? leftFlag : 0) | code;
	out.bytes3(flags, Math.abs(dy), Math.abs(dx));
}

export function writeU01(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, {
		maxStitch: maxStep,
		maxJump: maxStep,
		label: 'U01',
	});
	const bounds = patternBounds(pattern);
	const out = new ByteBuilder(headerSize + pattern.length * 3 + 6);
	out.fill(0x30, 0x80);
	out.u16le(int16(bounds.minX));
	out.u16le(int16(-bounds.maxY));
	out.u16le(int16(bounds.maxX));
	out.u16le(int16(-bounds.minY));
	out.u32le(0);
	out.u32le(pattern.length + 1);
	out.u16le(int16(pattern.lastX()));
	out.u16le(int16(-pattern.lastY()));
	out.padTo(headerSize);

	let block = 0;
	// Block 0's needle is set first so the machine starts where the colour plan does.
	record(out, firstNeedleCode, 0, 0);
	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		const dx = pattern.xs[i] - x;
		const dy = pattern.ys[i] - y;
		x = pattern.xs[i];
		y = pattern.ys[i];
		if (command === Stitch) record(out, stitchCode, dx, dy);
		else if (command === Jump) record(out, jumpCode, dx, dy);
		else if (command === Trim) record(out, trimCode, 0, 0);
		else if (command === Stop) record(out, stopCode, 0, 0);
		else if (command === ColorChange) {
			block++;
			record(out, firstNeedleCode + (block % needles), 0, 0);
		} else if (command === End) out.bytes3(recordFlag | 0x40 | 0x20 | endCode, 0, 0);
	}
	if (block >= needles)
		warnings.push(`U01 machines have ${needles} needles: colour blocks reuse needles in turn.`);
	if (source.threads.length) warnings.push('U01 carries no thread colours: they were left out.');
	return { bytes: out.toBytes(), warnings };
}
