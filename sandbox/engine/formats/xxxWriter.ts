/** Writes Singer XXX: the header, stitch and control records, then the colour table. */
import { colourBlocks, normaliseForWriter, patternBounds } from '../normalise';
import { Command, type Pattern, type Thread } from '../pattern';
import { defaultThread } from '../threads/colourBlocks';
import { ByteBuilder } from './binaryIo';
import type { WriteResult } from './format';
import {
	colourChangeCode,
	colourCountOffset,
	controlLead,
	endCode,
	endOffsetField,
	headerSize,
	jumpCode,
	longJumpLead,
	maxLongJump,
	maxStitch,
	trimCode,
} from './xxxReader';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, ColorChange, End } = Command;

export function writeXxx(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, {
		maxStitch,
		maxJump: maxLongJump,
		stopAsColourChange: true,
		label: 'XXX',
	});
	const blocks = colourBlocks(pattern);
	const threads: Thread[] = [];
	let defaulted = 0;
	for (let i = 0; i < Math.max(blocks.length, pattern.threads.length); i++) {
		const thread = pattern.threads[i];
		if (thread) threads.push(thread);
		else {
			threads.push(defaultThread(i));
			defaulted++;
		}
	}
	if (defaulted)
		warnings.push(
			`The design names no colour for ${defaulted} colour block(s): default colours were written.`,
		);

	const out = new ByteBuilder(headerSize + pattern.length * 4 + threads.length * 4 + 16);
	const bounds = patternBounds(pattern);
	let records = 0;
	for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] !== End) records++;
	out.fill(0, 0x17);
	out.u32le(records);
	out.padTo(colourCountOffset);
	out.u16le(threads.length);
	out.u16le(0);
	out.u16le(0);
	out.u16le(Math.min(0xffff, bounds.maxX - bounds.minX));
	out.u16le(Math.min(0xffff, bounds.maxY - bounds.minY));
	let lastStitch = -1;
	for (let i = pattern.length - 1; i >= 0 && lastStitch < 0; i--)
		if (pattern.commands[i] === Stitch) lastStitch = i;
	out.u16le(lastStitch >= 0 ? pattern.xs[lastStitch] : 0);
	out.u16le(lastStitch >= 0 ? -pattern.ys[lastStitch] : 0);
	out.padTo(headerSize);

	let x = 0;
	let y = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		const dx = pattern.xs[i] - x;
		const dy = y - pattern.ys[i];
		x = pattern.xs[i];
		y = pattern.ys[i];
		if (command === Stitch) {
			out.u8(dx);
			out.u8(dy);
		} else if (command === Jump) {
			if (Math.abs(dx) <= maxStitch && Math.abs(dy) <= maxStitch) {
				out.u8(controlLead);
				out.u8(jumpCode);
				out.u8(dx);
				out.u8(dy);
			} else {
				out.u8(longJumpLead);
				out.u16le(dx);
				out.u16le(dy);
			}
		} else if (command === Trim) {
			out.u8(controlLead);
			out.u8(trimCode);
			out.u16le(0);
		} else if (command === ColorChange) {
			out.u8(controlLead);
			out.u8(colourChangeCode);
			out.u16le(0);
		} else if (command === End) {
			out.patchU32le(endOffsetField, out.length);
			out.u8(controlLead);
			out.u8(endCode);
			out.u8(0x02);
			out.u8(0x14);
		}
	}
	out.u16le(0);
	for (const thread of threads) out.u32be(thread.color & 0xffffff);
	return { bytes: out.toBytes(), warnings };
}
