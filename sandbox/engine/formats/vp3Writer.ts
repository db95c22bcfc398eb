import { normaliseForWriter, patternBounds } from '../normalise';
import { Command, type Pattern, type Thread } from '../pattern';
import { threadBlocks } from '../threads/colourBlocks';
import { ByteBuilder } from './binaryIo';
import { UnwritablePatternError } from '../errors';
import type { WriteResult } from './format';
import { isTrimmedMove, maxLongStitch, vp3Magic } from './vp3Reader';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch: STITCH, Jump: JUMP, Trim: TRIM, ColorChange: COLOR_CHANGE, End: END } = Command;

/** Short stitches are one signed byte per axis (-128 would read as the escape byte). */
const maxShortMove = 127;
/** Long moves are 16-bit signed values; one folded short move may still be added to a jump. */
const maxLongMove = 0x7fff - maxLongStitch;
const producer = 'Produced by     Software Ltd';
const utf8 = new TextEncoder();

function utf16String(out: ByteBuilder, text: string): void {
	out.u16be(text.length * 2);
	for (let i = 0; i < text.length; i++) out.u16be(text.charCodeAt(i));
}

function utf8String(out: ByteBuilder, text: string): void {
	const encoded = utf8.encode(text).subarray(0, 0xffff);
	out.u16be(encoded.length);
	out.bytes(encoded);
}

/** Opens a nested block (3 tag bytes and a 32-bit length patched by the returned function on close). */
function openBlock(out: ByteBuilder, tag: number): () => void {
	out.bytes([0x00, tag, 0x00]);
	const lengthAt = out.length;
	out.u32be(0);
	return () => out.patchU32be(lengthAt, out.length - lengthAt - 4);
}

/** Header positions are in 1/1000 mm with y up. */
function microns(value: number): number {
	return value * 100;
}

function writeThread(out: ByteBuilder, thread: Thread): void {
	// One colour, no transition; no parts or length; thread type 5 (rayon), weight 40.
	out.bytes([0x01, 0x00]);
	out.u24be(thread.color & 0xffffff);
	out.bytes([0x00, 0x00, 0x00, 0x05, 0x28]);
	utf8String(out, thread.catalogNumber ?? '');
	utf8String(out, thread.name ?? '');
	utf8String(out, thread.brand ?? '');
}

interface Block {
	/** Index of the block's first entry and the index after its last. */
	start: number;
	end: number;
	thread: Thread;
}

/** The normalised pattern cut at colour changes (stops are colour changes by now). */
function blocksOf(pattern: Pattern): Block[] {
	const threads = threadBlocks(pattern).threads;
	const blocks: Block[] = [];
	let start = 0;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (command === COLOR_CHANGE || command === END) {
			blocks.push({ start, end: i, thread: threads[blocks.length] });
			start = i + 1;
			if (command === END) break;
		}
	}
	return blocks;
}

interface MoveCounts {
	/** Short moves without a trim before them, which VP3 can only sew as a long stitch. */
	sewnMoves: number;
	/** Long moves without a trim before them, which readers take as a trim and a move. */
	trimmedMoves: number;
}

function longMove(out: ByteBuilder, dx: number, dy: number): void {
	out.bytes([0x80, 0x01]);
	out.u16be(dx);
	out.u16be(dy);
	out.bytes([0x80, 0x02]);
}

/**
 * VP3 has no jump command: a long move of up to 25.5 mm is a stitch, a longer one a trimmed move.
 * So short jumps fold into the next stitch, and a stitch that lands after a long move is sewn in place.
 */
function writeStitches(
	out: ByteBuilder,
	pattern: Pattern,
	block: Block,
	fromX: number,
	fromY: number,
	counts: MoveCounts,
): void {
	const close = openBlock(out, 0x01);
	out.bytes([0x0a, 0xf6, 0x00]);
	let x = fromX;
	let y = fromY;
	let trimmed = true;
	let folded = false;
	for (let i = block.start; i < block.end; i++) {
		const command = pattern.commands[i];
		const toX = pattern.xs[i];
		const toY = pattern.ys[i];
		const dx = toX - x;
		const dy = toY - y;
		if (command === TRIM) {
			out.bytes([0x80, 0x03]);
			trimmed = true;
			continue;
		}
		if (command === JUMP) {
			if (dx === 0 && dy === 0) continue;
			if (!isTrimmedMove(dx, dy)) {
				if (!trimmed && !folded) counts.sewnMoves++;
				folded = true;
				continue;
			}
			if (!trimmed) counts.trimmedMoves++;
			longMove(out, dx, dy);
			trimmed = true;
			folded = false;
		} else if (command === STITCH) {
			if (dx >= -maxShortMove && dx <= maxShortMove && dy >= -maxShortMove && dy <= maxShortMove) {
				out.u8(dx);
				out.u8(dy);
			} else {
				longMove(out, dx, dy);
				if (isTrimmedMove(dx, dy)) {
					if (!trimmed) counts.trimmedMoves++;
					out.bytes([0x00, 0x00]);
				}
			}
			trimmed = false;
			folded = false;
		} else {
			continue;
		}
		x = toX;
		y = toY;
	}
	close();
}

export function writeVp3(source: Pattern): WriteResult {
	const { pattern, warnings } = normaliseForWriter(source, {
		maxStitch: maxShortMove,
		maxJump: maxLongMove,
		stopAsColourChange: true,
		label: 'VP3',
	});
	const blocks = blocksOf(pattern);
	if (blocks.length > 0xffff)
		throw new UnwritablePatternError('VP3 holds at most 65535 colour blocks.');
	const bounds = patternBounds(pattern);
	const centreX = Math.round((bounds.minX + bounds.maxX) / 2);
	const centreY = Math.round((bounds.minY + bounds.maxY) / 2);
	const halfWidth = Math.ceil((bounds.maxX - bounds.minX) / 2);
	const halfHeight = Math.ceil((bounds.maxY - bounds.minY) / 2);
	let stitchCount = 0;
	for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === STITCH) stitchCount++;

	const out = new ByteBuilder(1024 + pattern.length * 2 + blocks.length * 128);
	out.ascii(vp3Magic);
	utf16String(out, producer);
	const closeFile = openBlock(out, 0x02);
	utf16String(out, '');
	out.u32be(microns(bounds.maxX));
	out.u32be(microns(-bounds.minY));
	out.u32be(microns(bounds.minX));
	out.u32be(microns(-bounds.maxY));
	out.u32be(stitchCount);
	out.bytes([0x00, blocks.length & 0xff, 0x0c, 0x00, 0x01]);

	const closeDesign = openBlock(out, 0x03);
	out.u32be(microns(centreX));
	out.u32be(microns(-centreY));
	out.bytes([0x00, 0x00, 0x00]);
	out.u32be(microns(-halfWidth));
	out.u32be(microns(halfWidth));
	out.u32be(microns(-halfHeight));
	out.u32be(microns(halfHeight));
	out.u32be(microns(bounds.maxX - bounds.minX));
	out.u32be(microns(bounds.maxY - bounds.minY));
	utf16String(out, '');
	out.bytes([0x64, 0x64]);
	out.u32be(4096);
	out.u32be(0);
	out.u32be(0);
	out.u32be(4096);
	out.ascii('xxPP');
	out.bytes([0x01, 0x00]);
	utf16String(out, producer);
	out.u16be(blocks.length);

	const counts: MoveCounts = { sewnMoves: 0, trimmedMoves: 0 };
	let x = 0;
	let y = 0;
	for (const block of blocks) {
		const closeBlock = openBlock(out, 0x05);
		out.u32be(microns(x - centreX));
		out.u32be(microns(-(y - centreY)));
		writeThread(out, block.thread);
		const last = block.end > block.start ? block.end - 1 : -1;
		const endX = last >= 0 ? pattern.xs[last] : x;
		const endY = last >= 0 ? pattern.ys[last] : y;
		out.u32be(microns(endX - x));
		out.u32be(microns(-(endY - y)));
		writeStitches(out, pattern, block, x, y, counts);
		out.u8(0);
		closeBlock();
		x = endX;
		y = endY;
	}
	closeDesign();
	closeFile();
	if (counts.sewnMoves > 0)
		warnings.push(
			`VP3 has no jump command: ${counts.sewnMoves} move(s) of up to 25.5 mm without a trim ` +
				`before them are sewn as long stitches.`,
		);
	if (counts.trimmedMoves > 0)
		warnings.push(
			`VP3 has no jump command: ${counts.trimmedMoves} move(s) longer than 25.5 mm without a ` +
				`trim before them are read by machines as a trim and a move.`,
		);
	return { bytes: out.toBytes(), warnings };
}
