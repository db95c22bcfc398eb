/**
 * Reads Husqvarna Viking SHV. The file opens with Viking's licence text (86 bytes, or as many zero
 * bytes from some writers), then: the design's name (a
 * length byte and the text), a preview bitmap (width and height bytes, 4 bytes, then one byte per pixel
 * pair: ceil(height / 2) x width bytes), the colour count, 18 bytes (6 unknown, the extents +x, +y, -x,
 * -y as big-endian 16-bit values with y down, and the stitch count), and 14 bytes per colour block (its
 * stitch count, 32-bit big-endian; its chart code; 9 more bytes). The stitches follow to the end of the
 * file: signed (dx, dy) byte pairs in 0.1 mm with y down, or 0x80 and a code: 01 and two 16-bit
 * big-endian values, a long move after which short records are moves too, until 02 (back to sewing);
 * 03, which carries nothing. A long move counts as 3 stitches, a code as 1; the colour changes where a
 * block's count runs out.
 */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { shvThreadChart } from '../threads/shvThreads';
import { ByteCursor, hasSignature, signed16, signed8 } from './binaryIo';

export const shvLicenceText =
	'Embroidery disk created using software licensed from Viking Sewing Machines AB, Sweden';
const blockRecordBytes = 14;
const escape = 0x80;
const longMoveCode = 0x01;
const sewCode = 0x02;
const emptyCode = 0x03;
const longMoveStitches = 3;

/** Extents of the design as the header declares them, in 0.1 mm with y down. */
export interface ShvExtents {
	right: number;
	bottom: number;
	left: number;
	top: number;
}

interface ShvHeader {
	extents: ShvExtents;
	stitchCount: number;
	blocks: { stitches: number; code: number }[];
	stitchesOffset: number;
}

/** The licence text, or the zeros some writers put in its place. */
function hasShvOpening(bytes: Uint8Array): boolean {
	if (hasSignature(bytes, shvLicenceText)) return true;
	if (bytes.length < shvLicenceText.length) return false;
	for (let i = 0; i < shvLicenceText.length; i++) if (bytes[i] !== 0) return false;
	return true;
}

function readHeader(cursor: ByteCursor): ShvHeader {
	if (!hasShvOpening(cursor.bytes)) cursor.fail("it does not start with Viking's licence text");
	cursor.seek(shvLicenceText.length);
	cursor.skip(cursor.u8());
	const previewWidth = cursor.u8();
	const previewHeight = cursor.u8();
	cursor.skip(4 + Math.ceil(previewHeight / 2) * previewWidth);
	const colourCount = cursor.u8();
	cursor.skip(6);
	const right = cursor.i16be();
	const bottom = cursor.i16be();
	const left = cursor.i16be();
	const top = cursor.i16be();
	const stitchCount = cursor.u32be();
	if (colourCount * blockRecordBytes > cursor.remaining)
		cursor.fail(`its ${colourCount} colour blocks do not fit in the file`);
	const blocks: ShvHeader['blocks'] = [];
	let declared = 0;
	for (let i = 0; i < colourCount; i++) {
		const stitches = cursor.u32be();
		blocks.push({ stitches, code: cursor.u8() });
		cursor.skip(blockRecordBytes - 5);
		declared += stitches;
	}
	if (declared !== stitchCount)
		cursor.fail(`its colour blocks hold ${declared} stitches, its header ${stitchCount}`);
	if (colourCount === 0 || stitchCount === 0) cursor.fail('its header declares no stitches');
	return {
		extents: { right, bottom, left, top },
		stitchCount,
		blocks,
		stitchesOffset: cursor.position,
	};
}

/**
 * The licence text is SHV's signature. Where a writer left zeros in its place, the file is SHV only if all
 * of it fits: a header whose colour blocks add up to its stitch count, and records that add up to it too.
 */
export function looksLikeShv(bytes: Uint8Array): boolean {
	if (hasSignature(bytes, shvLicenceText)) return true;
	if (!hasShvOpening(bytes)) return false;
	try {
		readShv(bytes);
		return true;
	} catch {
		return false;
	}
}

/** The extents an SHV file's header declares; for telling where its origin lies. */
export function shvExtents(bytes: Uint8Array): ShvExtents {
	return readHeader(new ByteCursor(bytes, 'SHV')).extents;
}

export function readShv(bytes: Uint8Array): Pattern {
	const cursor = new ByteCursor(bytes, 'SHV');
	const header = readHeader(cursor);
	if ((bytes.length - header.stitchesOffset) % 2 !== 0)
		cursor.fail('its stitch records end with half a record');
	const builder = new RelativePatternBuilder(
		Math.max(1024, ((bytes.length - header.stitchesOffset) >> 1) + header.blocks.length + 2),
	);
	const { blocks } = header;
	let block = 0;
	let blockEnd = blocks.length > 0 ? blocks[0].stitches : 0;
	let counted = 0;
	let moving = false;
	let at = header.stitchesOffset;
	while (at < bytes.length) {
		// The next block starts once this one's stitches are all counted.
		while (counted >= blockEnd && block < blocks.length - 1) {
			block++;
			blockEnd += blocks[block].stitches;
			builder.colourChange();
		}
		const first = bytes[at];
		const second = bytes[at + 1];
		at += 2;
		if (first !== escape) {
			counted++;
			if (moving) builder.jump(signed8(first), signed8(second));
			else builder.stitch(signed8(first), signed8(second));
		} else if (second === longMoveCode) {
			if (at + 4 > bytes.length) cursor.fail('a long move is cut off at the end of the file');
			counted += longMoveStitches;
			builder.jump(signed16(bytes[at], bytes[at + 1]), signed16(bytes[at + 2], bytes[at + 3]));
			at += 4;
			moving = true;
		} else if (second === sewCode) {
			counted++;
			moving = false;
		} else if (second === emptyCode) {
			counted++;
		} else {
			cursor.fail(
				`the record at byte ${at - 2} has the unknown code 0x80 0x${second.toString(16)}`,
			);
		}
	}
	if (counted !== header.stitchCount) {
		throw new UnreadableSourceError(
			`The SHV file is damaged: its header declares ${header.stitchCount} stitches, but it holds ${counted}.`,
		);
	}
	const pattern = builder.finish();
	pattern.threads = blocks.map((entry) => shvThreadChart.threadForCode(entry.code));
	return pattern;
}
