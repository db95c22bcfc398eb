import { UnreadableSourceError } from '../errors';
import { countCommands } from '../normalise';
import { Command, Pattern, threadOf, type Thread } from '../pattern';
import { ByteCursor, hasSignature, signed16, signed8 } from './binaryIo';
import { warnEndsEarly } from './endsEarly';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch: STITCH, Jump: JUMP, Trim: TRIM, ColorChange: COLOR_CHANGE, End: END } = Command;

/**
 * Reading VP3: big-endian nested blocks (file 00 02 00, design 00 03 00, colour 00 05 00, stitches
 * 00 01 00), each opened by a 32-bit length. Positions in headers are in 1/1000 mm with y up; stitch
 * bytes are relative 0.1 mm with y down: short (dx, dy), 80 01 + two 16-bit values + 80 02 for a long
 * move (a stitch up to 25.5 mm per axis, a trim and a move beyond), 80 03 for a trim.
 *
 * A file cut short (its file block declares more bytes than it holds) is read up to the cut, with the job's
 * ends-early warning; a colour block that runs past the end of a file whose file block does not is damage.
 */

export const vp3Magic = '%vsm%\0';
const utf8 = new TextDecoder('utf-8');
const escape = 0x80;
const longMove = 0x01;
const longMoveEnd = 0x02;
const trimCode = 0x03;
/** A long move up to this length per axis is a stitch; beyond it, a trimmed move. */
export const maxLongStitch = 255;

/** Whether a long move of this size is read as a trim and a move rather than a stitch. */
export function isTrimmedMove(dx: number, dy: number): boolean {
	return dx > maxLongStitch || dx < -maxLongStitch || dy > maxLongStitch || dy < -maxLongStitch;
}

function skipString(cursor: ByteCursor): void {
	cursor.skip(cursor.u16be());
}

function utf8String(cursor: ByteCursor): string {
	return utf8.decode(cursor.slice(cursor.u16be()));
}

function readThread(cursor: ByteCursor): Thread {
	const colourCount = cursor.u8();
	cursor.skip(1);
	let color = 0;
	for (let i = 0; i < colourCount; i++) {
		const rgb = cursor.u24be();
		if (i === 0) color = rgb;
		cursor.skip(3);
	}
	cursor.skip(2);
	const catalogNumber = utf8String(cursor);
	const name = utf8String(cursor);
	const brand = utf8String(cursor);
	return threadOf({ color, name, catalogNumber, brand });
}

/** Header positions are in 1/1000 mm; the pattern works in 0.1 mm. */
function fromMicrons(value: number): number {
	return Math.round(value / 100);
}

export function hasVp3Magic(bytes: Uint8Array): boolean {
	return hasSignature(bytes, vp3Magic);
}

interface BlockHeader {
	/** Where the block's bytes end (the file's end in a file cut short). */
	blockEnd: number;
	startX: number;
	startY: number;
	thread: Thread;
}

/**
 * A colour block's header, the cursor left at its stitch bytes; null when the file is `cut` inside it.
 * A block that runs past the end of a file not cut short is refused.
 */
function blockHeader(cursor: ByteCursor, block: number, cut: boolean): BlockHeader | null {
	try {
		cursor.skip(3);
		const blockLength = cursor.u32be();
		let blockEnd = cursor.position + blockLength;
		if (blockEnd > cursor.length) {
			if (!cut) cursor.fail(`colour block ${block + 1} runs past the end of the file`);
			blockEnd = cursor.length;
		}
		const startX = fromMicrons(cursor.i32be());
		const startY = fromMicrons(cursor.i32be());
		const thread = readThread(cursor);
		cursor.skip(8 + 3 + 4 + 3);
		return { blockEnd, startX, startY, thread };
	} catch (error) {
		if (cut && error instanceof UnreadableSourceError) return null;
		throw error;
	}
}

export function readVp3(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'VP3');
	if (!hasVp3Magic(bytes)) cursor.fail('it does not start with the "%vsm%" signature');
	cursor.seek(vp3Magic.length);
	skipString(cursor);
	cursor.skip(3);
	const fileLength = cursor.u32be();
	const fileEnd = cursor.position + fileLength;
	skipString(cursor);
	// Extents, then the stitch count, then the colour count byte and design count.
	cursor.skip(16);
	const declaredStitches = cursor.u32be();
	cursor.skip(4 + 1 + 3);
	const designLength = cursor.u32be();
	const designEnd = cursor.position + designLength;
	// The file and design blocks both declare more bytes than the file holds: the file was cut short.
	const cut = fileEnd > bytes.length && designEnd > bytes.length;
	const centreX = fromMicrons(cursor.i32be());
	const centreY = -fromMicrons(cursor.i32be());
	cursor.skip(3 + 16 + 8);
	skipString(cursor);
	cursor.skip(2 + 16 + 6);
	skipString(cursor);
	const blockCount = cursor.u16be();

	const pattern = new Pattern(Math.max(16, Math.min(bytes.length >> 1, 1 << 22)));
	const threads: Thread[] = [];
	let x = 0;
	let y = 0;
	let endedEarly = false;
	for (let block = 0; block < blockCount; block++) {
		const header = blockHeader(cursor, block, cut);
		// Cut inside a colour block's header: what came before is all the file holds.
		if (header === null) {
			endedEarly = true;
			break;
		}
		if (header.blockEnd === bytes.length && cut) endedEarly = true;
		const { blockEnd, thread } = header;
		if (block > 0) pattern.add(x, y, COLOR_CHANGE);
		const startX = centreX + header.startX;
		const startY = centreY - header.startY;
		if (startX !== x || startY !== y) {
			x = startX;
			y = startY;
			pattern.add(x, y, JUMP);
		}
		threads.push(thread);
		let at = cursor.position;
		if (at > blockEnd) cursor.fail(`colour block ${block + 1} is shorter than its header`);
		// A colour block starts with the thread cut; a trim is recorded once per cut.
		let trimmed = true;
		while (at + 1 < blockEnd) {
			const first = bytes[at];
			const second = bytes[at + 1];
			at += 2;
			if (first !== escape) {
				x += signed8(first);
				y += signed8(second);
				pattern.add(x, y, STITCH);
				trimmed = false;
			} else if (second === longMove) {
				if (at + 4 > blockEnd) {
					if (cut && blockEnd === bytes.length) break;
					cursor.fail(`a long move is cut off in colour block ${block + 1}`);
				}
				const dx = signed16(bytes[at], bytes[at + 1]);
				const dy = signed16(bytes[at + 2], bytes[at + 3]);
				// Writers close a long move with 80 02, which carries nothing; some go straight on to the next
				// stitch (the short lock stitches at the start of a run), which must not be skipped.
				at += 4;
				if (at + 1 < blockEnd && bytes[at] === escape && bytes[at + 1] === longMoveEnd) at += 2;
				if (isTrimmedMove(dx, dy)) {
					// Machines cut the thread before a move this long.
					if (!trimmed) pattern.add(x, y, TRIM);
					x += dx;
					y += dy;
					pattern.add(x, y, JUMP);
					trimmed = true;
				} else {
					x += dx;
					y += dy;
					pattern.add(x, y, STITCH);
					trimmed = false;
				}
			} else if (second === trimCode) {
				if (!trimmed) pattern.add(x, y, TRIM);
				trimmed = true;
			}
		}
		cursor.seek(blockEnd);
	}
	pattern.add(x, y, END);
	pattern.threads = threads;
	if (endedEarly) {
		const stitches = countCommands(pattern, STITCH);
		warnEndsEarly(
			pattern,
			'inside its stitch blocks',
			declaredStitches > stitches
				? { count: declaredStitches, what: 'stitches', read: stitches }
				: undefined,
		);
	}
	return pattern;
}
