/**
 * Barudan U01: a 256-byte header, then 3-byte records [control, |dy|, |dx|]. The control's
 * bit 0x40 makes dy point down, 0x20 makes dx negative, its low 5 bits say what happens:
 * 0 stitch, 1 jump, 2-5 speed changes, 6-7 trims, 8 stop, 9-23 needle 1-15, 24 end.
 */
import { normaliseForWriter, patternBounds, recordsBuilder } from '../normalise';
import { ByteBuilder } from './binary-io';
import { Command } from '../pattern';
import type { Pattern } from '../pattern';
import type { FormatModule, WriteResult } from './format';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, Stop, ColorChange, End } = Command;

const headerSize = 0x100;
const maxStep = 127;
const recordFlag = 0x80;
const downFlag = 0x40;
const leftFlag = 0x20;
const commandMask = 0x1f;
const stitchCode = 0x00;
const jumpCode = 0x01;
const trimCode = 0x07;
const stopCode = 0x08;
const firstNeedleCode = 0x09;
const lastNeedleCode = 0x17;
const endCode = 0x18;
/** Some machines append their own data after this control byte. */
const machinePostfix = 0x2b;
const needles = lastNeedleCode - firstNeedleCode + 1;

function readU01(bytes: Uint8Array): Pattern {
	const builder = recordsBuilder(bytes, headerSize, 3, 'U01');
	let sewn = false;
	let needleChosen = false;
	for (let offset = headerSize; offset + 3 <= bytes.length; offset += 3) {
		const controlByte = bytes[offset];
		if (controlByte === machinePostfix) break;
		const dy = controlByte & downFlag ? bytes[offset + 1] : -bytes[offset + 1];
		const dx = controlByte & leftFlag ? -bytes[offset + 2] : bytes[offset + 2];
		const code = controlByte & commandMask;
		if (code === endCode) break;
		switch (code) {
			case stitchCode:
			case 0x02:
			case 0x04:
				// 0x02 / 0x04 only add a speed change, which the pattern does not model.
				builder.stitch(dx, dy);
				sewn = true;
				break;
			case jumpCode:
			case 0x03:
			case 0x05:
				builder.jump(dx, dy);
				break;
			case 0x06:
			case trimCode:
				builder.trim();
				builder.jump(dx, dy);
				break;
			case stopCode:
				builder.jump(dx, dy);
				builder.stop();
				break;
			default:
				builder.jump(dx, dy);
				if (code >= firstNeedleCode && code <= lastNeedleCode) {
					// The first needle chosen before anything is sewn sets up the machine; every later one
					// changes colour, even one before the first stitch (a design that starts with a change).
					if (sewn || needleChosen) builder.colourChange();
					needleChosen = true;
				}
				break;
		}
	}
	return builder.finish();
}

/** Every record up to the end code carries the record flag and a known command. */
function looksLikeU01(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize + 3) return false;
	const last = Math.min(bytes.length, headerSize + 3 * 4096);
	let records = 0;
	for (let offset = headerSize; offset + 3 <= last; offset += 3) {
		const controlByte = bytes[offset];
		if (records > 0 && controlByte === machinePostfix) return true;
		if ((controlByte & recordFlag) === 0 || (controlByte & commandMask) > endCode) return false;
		records++;
		if ((controlByte & commandMask) === endCode) return true;
	}
	return records > 0 && (last < bytes.length || (bytes.length - headerSize) % 3 === 0);
}

/** Header extents are signed 16-bit; a design beyond ±3.2 m is clamped there rather than wrapped. */
function int16(value: number): number {
	return Math.max(-32768, Math.min(32767, value));
}

function record(out: ByteBuilder, code: number, dx: number, dy: number): void {
	const flags = recordFlag | (dy >= 0 ? downFlag : 0) | (dx <= 0 ? leftFlag : 0) | code;
	out.bytes3(flags, Math.abs(dy), Math.abs(dx));
}

function writeU01(source: Pattern): WriteResult {
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

export const u01Format: FormatModule = {
	info: {
		format: 'u01',
		label: 'Barudan U01',
		extension: 'u01',
		mimeType: 'application/x-u01',
		readable: true,
		writable: true,
		warning:
			'U01 carries no thread colours: each colour block is assigned a needle (1 to 15, in turn) to be threaded at the machine.',
	},
	detect: looksLikeU01,
	detectionStrength: 2,
	read: readU01,
	write: writeU01,
	// U01 names no hoop (its header holds only the design's extents), and Barudan's machines take frames of
	// many sizes: no common limit is known, so no hoop warning.
	largestHoop: null,
};
