/**
 * Toyota 10O: no header, 3-byte records [control, |dy|, |dx|]: the control's 0x40 points dy down and
 * 0x20 dx left, its low five bits say stitch (0) or move (0x10); the codes 0x8A start, 0x81 trim,
 * 0x82 stop, 0x85 colour change and 0x87 end move nothing. Without a header, a file is 10O only when
 * every record fits and the end record is its last.
 */
import { UnreadableSourceError } from '../errors';
import { normaliseForWriter, wholeRecordsBuilder } from '../normalise';
import { Command, type Pattern } from '../pattern';
import type { FormatModule, WriteResult } from './format';

const recordFlag = 0x80;
const downFlag = 0x40;
const leftFlag = 0x20;
const moveCode = 0x10;
const startCode = 0x8a;
const trimCode = 0x81;
const stopCode = 0x82;
const colourChangeCode = 0x85;
const endCode = 0x87;
const commandCodes = new Set([startCode, trimCode, stopCode, colourChangeCode, endCode]);
const maxStep = 0x7f;

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, ColorChange, End } = Command;

/** Why the record at `offset` does not fit 10O, or null when it does. */
function recordProblem(bytes: Uint8Array, offset: number): string | null {
	const control = bytes[offset];
	const b1 = bytes[offset + 1];
	const b2 = bytes[offset + 2];
	const low = control & 0x1f;
	if ((control & recordFlag) === 0) return 'lacks the record flag';
	if (low === 0 || low === moveCode)
		return b1 > 0x7f || b2 > 0x7f ? 'moves further than 12.7 mm' : null;
	if (!commandCodes.has(control))
		return `has the control 0x${control.toString(16)}, which 10O does not use`;
	return b1 !== 0 || b2 !== 0 ? 'moves the needle with a command that moves nothing' : null;
}

function damaged(problem: string): UnreadableSourceError {
	return new UnreadableSourceError(`The file is not a Toyota 10O file: ${problem}.`);
}

function readToyota10o(bytes: Uint8Array): Pattern {
	const builder = wholeRecordsBuilder(bytes, 3, 'Toyota 10O');
	const last = bytes.length - 3;
	for (let offset = 0; offset <= last; offset += 3) {
		const problem = recordProblem(bytes, offset);
		if (problem) throw damaged(`record ${offset / 3 + 1} ${problem}`);
		const control = bytes[offset];
		const dy = control & downFlag ? bytes[offset + 1] : -bytes[offset + 1];
		const dx = control & leftFlag ? -bytes[offset + 2] : bytes[offset + 2];
		const low = control & 0x1f;
		if (low === 0) builder.stitch(dx, dy);
		else if (low === moveCode) builder.jump(dx, dy);
		else if (control === trimCode) builder.trim();
		else if (control === stopCode) builder.stop();
		else if (control === colourChangeCode) builder.colourChange();
		else if (control === endCode && offset !== last)
			throw damaged(`its end record (record ${offset / 3 + 1}) is not its last`);
	}
	if (bytes[last] !== endCode) throw damaged('its last record is not the end record');
	return builder.finish();
}

/** The cheap part of the check: whole records, the end record last, the first records fitting. */
function looksLikeToyota10o(bytes: Uint8Array): boolean {
	if (bytes.length < 3 || bytes.length % 3 !== 0 || bytes[bytes.length - 3] !== endCode)
		return false;
	const last = Math.min(bytes.length - 3, 3 * 4096);
	for (let offset = 0; offset < last; offset += 3)
		if (bytes[offset] === endCode || recordProblem(bytes, offset)) return false;
	return true;
}

/**
 * Writes the codes Star.10O itself uses (start, stitch, move, colour change, end) and pyembroidery's
 * and libembroidery's trim; stops become colour changes, since only pyembroidery names a stop code.
 */
function writeToyota10o(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, {
		maxStitch: maxStep,
		maxJump: maxStep,
		stopAsColourChange: true,
		label: '10O',
	});
	const out = new Uint8Array((pattern.length + 1) * 3);
	out[0] = startCode;
	let offset = 3;
	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		let control: number;
		if (command === Stitch || command === Jump) {
			const dx = pattern.xs[i] - x;
			const dy = pattern.ys[i] - y;
			x = pattern.xs[i];
			y = pattern.ys[i];
			control = recordFlag | (command === Jump ? moveCode : 0);
			if (dy > 0) control |= downFlag;
			if (dx < 0) control |= leftFlag;
			out[offset + 1] = Math.abs(dy);
			out[offset + 2] = Math.abs(dx);
		} else if (command === Trim) control = trimCode;
		else if (command === ColorChange) control = colourChangeCode;
		else if (command === End) control = endCode;
		else continue;
		out[offset] = control;
		offset += 3;
	}
	if (source.threads.length) warnings.push('10O carries no thread colours: they were left out.');
	return { bytes: out.subarray(0, offset), warnings };
}

export const toyota10oFormat: FormatModule = {
	info: {
		format: '10o',
		label: 'Toyota 10O',
		extension: '10o',
		mimeType: 'application/x-toyota-10o',
		readable: true,
		writable: true,
		warning:
			'10O carries no thread colours and no header: colours are lost (Toyota keeps them in a ' +
			'separate file), and the file is recognised by its records only. Stops are written as ' +
			'colour changes.',
	},
	detect: looksLikeToyota10o,
	// No header: a strict record structure, which the reader checks over the whole file.
	detectionStrength: 2,
	read: readToyota10o,
	write: writeToyota10o,
	// 10O names no hoop, and Toyota's machines take frames of many sizes.
	largestHoop: null,
};
