/** Writes Tajima TBF: the labelled header with the needle of each colour block and each needle's thread. */
import { UnwritablePatternError } from '../errors';
import { colourBlocks, normaliseForWriter } from '../normalise';
import { Command, type Pattern } from '../pattern';
import { defaultThread } from '../threads/colourBlocks';
import { ByteBuilder } from './binaryIo';
import { tajimaHeaderFields } from './dstWriter';
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
} from './tbfReader';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump } = Command;

/** TBF's control byte for each command, by the command's value (stitch, jump, trim, stop, colour change, end). */
const recordControls = [stitchCode, moveCode, trimCode, stopCode, needleCode, endCode];

const maxNeedles = (needleThreadsEnd - needleThreadsOffset) / 5;

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
			`TBF holds the threads of at most ${maxNeedles} needles; this design uses ` +
				`${needleColours.length} different colours.`,
		);
	if (source.threads.some((thread) => thread.name || thread.catalogNumber || thread.brand))
		warnings.push(
			'TBF keeps each thread as a colour only: thread names, brands and codes were left out.',
		);

	// The records first: the header counts them.
	const body = new ByteBuilder(pattern.length * 3 + 1);
	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		const moves = command === Stitch || command === Jump;
		const dx = moves ? pattern.xs[i] - x : 0;
		const up = moves ? y - pattern.ys[i] : 0;
		// A move of nothing would read back as a trim.
		if (command === Jump && dx === 0 && up === 0) continue;
		body.bytes3(dx, up, recordControls[command]);
		x += dx;
		y -= up;
	}
	body.u8(endOfFile);
	const records = (body.length - 1) / 3;

	const out = new ByteBuilder(headerSize + body.length);
	out.ascii('3.00');
	out.padTo(labelOffset, 0x20);
	out.ascii(
		tajimaHeaderFields(records, pattern) + `TP:${'EG/'.padEnd(32, ' ')}\r` + 'JC:3\r' + 'DO:',
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
	out.bytes(body.toBytes());
	return { bytes: out.toBytes(), warnings };
}
