/** Writes Tajima TBF: the labelled header with the needle of each colour block and each needle's thread. */
import { UnwritablePatternError } from '../errors';
import { colourBlocks, countCommands, normaliseForWriter, patternBounds } from '../normalise';
import { Command, type Pattern } from '../pattern';
import { defaultThread } from '../threads/colour-blocks';
import { ByteBuilder } from './binary-io';
import type { WriteResult } from './format';
import {
	endCode,
	endOfFile,
	headerSize,
	labelOffset,
	maxStep,
	moveCode,
	needleCode,
	needleOrderLength,
	needleThreadsEnd,
	needleThreadsOffset,
	stitchCode,
	stopCode,
	threadEntryLead,
	trimCode,
} from './tbf-reader';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, Stop, ColorChange, End } = Command;

const maxNeedles = (needleThreadsEnd - needleThreadsOffset) / 5;

function field(key: string, value: number, width: number, signed = false): string {
	const clamped = Math.min(Math.abs(Math.round(value)), 10 ** width - 1);
	const sign = signed ? (value < 0 ? '-' : '+') : '';
	return `${key}:${sign}${String(clamped).padStart(width, ' ')}\r`;
}

/** One needle per distinct colour, in the order the design first sews it: DA holds colours only. */
function assignNeedles(colours: number[]): { order: number[]; needleColours: number[] } {
	const needleColours: number[] = [];
	const order = colours.map((colour) => {
		const known = needleColours.indexOf(colour);
		if (known >= 0) return known + 1;
		needleColours.push(colour);
		return needleColours.length;
	});
	return { order, needleColours };
}

export function writeTbf(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, {
		maxStitch: maxStep,
		maxJump: maxStep,
		label: 'TBF',
	});
	const blocks = colourBlocks(pattern);
	if (blocks.length > needleOrderLength)
		throw new UnwritablePatternError(
			`TBF lists the needle of at most ${needleOrderLength} colour blocks; this design has ${blocks.length}.`,
		);
	let defaulted = 0;
	const colours = blocks.map((block, index) => {
		if (block.thread) return block.thread.color & 0xffffff;
		defaulted++;
		return defaultThread(index).color;
	});
	if (defaulted)
		warnings.push(
			`The design names no colour for ${defaulted} colour block(s): default colours were written.`,
		);
	const { order, needleColours } = assignNeedles(colours);
	if (needleColours.length > maxNeedles)
		throw new UnwritablePatternError(
			`TBF holds the threads of at most ${maxNeedles} needles; this design uses ${needleColours.length} different colours.`,
		);
	if (source.threads.some((thread) => thread.name || thread.catalogNumber || thread.brand))
		warnings.push(
			'TBF keeps each thread as a colour only: thread names, brands and codes were left out.',
		);

	const bounds = patternBounds(pattern);
	let records = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (
			command === Stitch ||
			command === Trim ||
			command === Stop ||
			command === ColorChange ||
			command === End
		)
			records++;
		else if (
			command === Jump &&
			(pattern.xs[i] !== (i ? pattern.xs[i - 1] : 0) ||
				pattern.ys[i] !== (i ? pattern.ys[i - 1] : 0))
		)
			records++;
	}
	const out = new ByteBuilder(headerSize + records * 3 + 1);
	out.ascii('3.00');
	out.padTo(labelOffset, 0x20);
	out.ascii(
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
			field('AY', -pattern.lastY(), 5, true) +
			`TP:${'EG/'.padEnd(32, ' ')}\r` +
			'JC:3\r' +
			'DO:',
	);
	const needleOrder = new Uint8Array(needleOrderLength);
	needleOrder.set(order);
	out.bytes(needleOrder);
	out.ascii('\rDA:');
	for (const colour of needleColours) {
		out.u8(threadEntryLead);
		out.u8(colour >> 16);
		out.u8(colour >> 8);
		out.u8(colour);
		out.u8(0x20);
	}
	out.padTo(needleThreadsEnd, 0x20);
	out.ascii('\r\x1a');
	out.padTo(headerSize, 0x20);

	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		const dx = pattern.xs[i] - x;
		const dy = pattern.ys[i] - y;
		x = pattern.xs[i];
		y = pattern.ys[i];
		if (command === Stitch) out.bytes3(dx, -dy, stitchCode);
		else if (command === Jump) {
			// A move of nothing would read as a trim.
			if (dx !== 0 || dy !== 0) out.bytes3(dx, -dy, moveCode);
		} else if (command === Trim) out.bytes3(0, 0, trimCode);
		else if (command === Stop) out.bytes3(0, 0, stopCode);
		else if (command === ColorChange) out.bytes3(0, 0, needleCode);
		else if (command === End) out.bytes3(0, 0, endCode);
	}
	out.u8(endOfFile);
	return { bytes: out.toBytes(), warnings };
}
