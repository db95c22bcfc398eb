/**
 * Singer XXX: a 256-byte header (colour count at 0x27, end-of-stitches offset at 0xFC),
 * 2-byte stitches (signed dx, dy; y pointing up), 0x7F-led 4-byte controls (0x01 jump,
 * 0x03 trim, 0x08 colour change, 0x7F end), 0x7D long jumps with 16-bit moves, then
 * the thread colours as 0x00RRGGBB after the end record.
 */
import {
	RelativePatternBuilder,
	colourBlocks,
	normaliseForWriter,
	patternBounds,
} from '../normalise';
import { Command } from '../pattern';
import type { Pattern, Thread } from '../pattern';
import { ByteBuilder, ByteCursor, signed8 } from './binary-io';
import type { FormatModule, WriteResult } from './format';
import { UnreadableSourceError } from '../errors';
import { defaultThread } from '../threads/colour-blocks';

/** Plain constants: reading them through the module binding in hot loops costs a getter call per record. */
const { Stitch, Jump, Trim, ColorChange, End } = Command;

const headerSize = 0x100;
const colourCountOffset = 0x27;
const endOffsetField = 0xfc;
const maxStitch = 124;
const maxLongJump = 32000;
const controlLead = 0x7f;
/** 0x7D (and 0x7E, rarely seen) lead a 5-byte jump with 16-bit moves. */
const longJumpLead = 0x7d;
const otherLongJumpLead = 0x7e;
const jumpCode = 0x01;
const trimCode = 0x03;
const colourChangeCode = 0x08;
const endCode = 0x7f;
/** More colours than any machine has needles or a file lists; a larger count is damage. */
const maxColours = 1024;

/**
 * Walks the stitch records from the header to the end record, telling `builder` what they do
 * (or only finding the end, for detection). Returns the offset after the end record, or -1.
 */
function walkRecords(bytes: Uint8Array, builder: RelativePatternBuilder | null): number {
	const cursor = new ByteCursor(bytes, 'XXX');
	let offset = headerSize;
	while (offset < bytes.length) {
		const lead = bytes[offset];
		if (lead === longJumpLead || lead === otherLongJumpLead) {
			if (offset + 5 > bytes.length) break;
			cursor.seek(offset + 1);
			builder?.jump(cursor.i16le(), -cursor.i16le());
			offset += 5;
			continue;
		}
		if (offset + 2 > bytes.length) break;
		if (lead !== controlLead) {
			builder?.stitch(signed8(lead), -signed8(bytes[offset + 1]));
			offset += 2;
			continue;
		}
		if (offset + 4 > bytes.length) break;
		const code = bytes[offset + 1];
		const dx = signed8(bytes[offset + 2]);
		const dy = -signed8(bytes[offset + 3]);
		offset += 4;
		if (code === endCode) return offset;
		if (!builder) continue;
		if (code === jumpCode) {
			builder.jump(dx, dy);
		} else if (code === trimCode) {
			builder.trim();
			builder.jump(dx, dy);
		} else if (code === colourChangeCode) {
			builder.jump(dx, dy);
			builder.colourChange();
		}
	}
	return -1;
}

function readXxx(bytes: Uint8Array): Pattern {
	if (bytes.length < headerSize) {
		throw new UnreadableSourceError(
			`An XXX file starts with a ${headerSize}-byte header, but this file has only ${bytes.length} bytes.`,
		);
	}
	const cursor = new ByteCursor(bytes, 'XXX');
	cursor.seek(colourCountOffset);
	const colourCount = cursor.u16le();
	const builder = new RelativePatternBuilder(Math.max(1024, (bytes.length - headerSize) >> 1));
	const afterEnd = walkRecords(bytes, builder);
	const pattern = builder.finish();
	if (afterEnd >= 0 && colourCount <= maxColours) {
		const threads: Thread[] = [];
		// Two filler bytes follow the end record, then one 0x00RRGGBB entry per colour.
		for (
			let i = 0, offset = afterEnd + 2;
			i < colourCount && offset + 4 <= bytes.length;
			i++, offset += 4
		) {
			threads.push({
				color: ((bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0,
			});
		}
		pattern.threads = threads;
	}
	return pattern;
}

/** An XXX file's stitches end in 0x7F 0x7F, with its colour table fitting after it. */
function looksLikeXxx(bytes: Uint8Array): boolean {
	if (bytes.length < headerSize + 4) return false;
	for (let i = 0; i < 0x17; i++) if (bytes[i] !== 0) return false;
	const colourCount = bytes[colourCountOffset] | (bytes[colourCountOffset + 1] << 8);
	if (colourCount > maxColours) return false;
	const cursor = new ByteCursor(bytes, 'XXX');
	cursor.seek(endOffsetField);
	const declaredEnd = cursor.u32le();
	if (declaredEnd + 2 <= bytes.length && declaredEnd >= headerSize) {
		if (bytes[declaredEnd] === controlLead && bytes[declaredEnd + 1] === endCode) return true;
	}
	const afterEnd = walkRecords(bytes, null);
	return afterEnd >= 0 && afterEnd + 2 + 4 * colourCount <= bytes.length;
}

function writeXxx(source: Pattern): WriteResult {
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

export const xxxFormat: FormatModule = {
	info: {
		format: 'xxx',
		label: 'Singer XXX',
		extension: 'xxx',
		mimeType: 'application/x-xxx',
		readable: true,
		writable: true,
		warning:
			'XXX keeps thread colours as RGB only, without names or catalogue numbers. Stops are written as colour changes.',
	},
	detect: looksLikeXxx,
	detectionStrength: 2,
	read: readXxx,
	write: writeXxx,
	// Singer's Futura machines, which sew XXX, come with a 10 x 6 inch large hoop (254 x 152 mm) as their
	// biggest (reviews of the Futura XL-420 on topembroiderymachines.com and best-home-ideas.com).
	largestHoop: { widthMm: 152, heightMm: 254, description: "Singer Futura's 10 x 6 inch (254 x 152 mm) large hoop" },
};
