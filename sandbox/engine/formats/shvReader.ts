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
 * block's count runs out. A file with the licence text that ends early is read up to its last whole record.
 */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import { boundsOf, Command, Pattern } from '../pattern';
import { shvThreadChart } from '../threads/shvThreads';
import { ByteCursor, hasSignature, signed16, signed8 } from './binaryIo';
import { warnEndsEarly } from './endsEarly';

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

/** The header, or null when `mayBeCut` and the file ends inside it (a file cut before its stitches). */
function readHeader(cursor: ByteCursor, mayBeCut = false): ShvHeader | null {
	if (!hasShvOpening(cursor.bytes)) cursor.fail("it does not start with Viking's licence text");
	const endsBefore = (bytes: number) => mayBeCut && cursor.remaining < bytes;
	cursor.seek(shvLicenceText.length);
	if (endsBefore(1)) return null;
	cursor.skip(cursor.u8());
	if (endsBefore(2)) return null;
	const previewWidth = cursor.u8();
	const previewHeight = cursor.u8();
	const previewBytes = 4 + Math.ceil(previewHeight / 2) * previewWidth;
	if (endsBefore(previewBytes + 19)) return null;
	cursor.skip(previewBytes);
	const colourCount = cursor.u8();
	cursor.skip(6);
	const right = cursor.i16be();
	const bottom = cursor.i16be();
	const left = cursor.i16be();
	const top = cursor.i16be();
	const stitchCount = cursor.u32be();
	if (endsBefore(colourCount * blockRecordBytes)) return null;
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
	return readHeader(new ByteCursor(bytes, 'SHV'))!.extents;
}

export function readShv(bytes: Uint8Array): Pattern {
	const cursor = new ByteCursor(bytes, 'SHV');
	// Only a file with the licence text may be cut short: one with zeros in its place is SHV only if it all fits.
	const mayBeCut = hasSignature(bytes, shvLicenceText);
	const header = readHeader(cursor, mayBeCut);
	if (header === null) {
		const empty = new Pattern(1);
		warnEndsEarly(empty, 'inside its header');
		return empty;
	}
	const halfRecord = (bytes.length - header.stitchesOffset) % 2 !== 0;
	const recordsEnd = bytes.length - (halfRecord ? 1 : 0);
	const builder = new RelativePatternBuilder(
		Math.max(1024, ((bytes.length - header.stitchesOffset) >> 1) + header.blocks.length + 2),
	);
	const { blocks } = header;
	let block = 0;
	let blockEnd = blocks.length > 0 ? blocks[0].stitches : 0;
	let counted = 0;
	let moving = false;
	let at = header.stitchesOffset;
	let cutMidRecord = halfRecord;
	while (at < recordsEnd) {
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
			if (at + 4 > bytes.length) {
				if (!mayBeCut) cursor.fail('a long move is cut off at the end of the file');
				cutMidRecord = true;
				break;
			}
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
	// A cut leaves fewer stitches than declared; half a record after all of them is not a cut.
	const cut = mayBeCut && counted < header.stitchCount;
	if (halfRecord && !cut) cursor.fail('its stitch records end with half a record');
	if (counted !== header.stitchCount && !cut) {
		throw new UnreadableSourceError(
			`The SHV file is damaged: its header declares ${header.stitchCount} stitches, but it holds ${counted}.`,
		);
	}
	const pattern = builder.finish();
	pattern.threads = blocks
		.slice(0, block + 1)
		.map((entry) => shvThreadChart.threadForCode(entry.code));
	if (cut) {
		expectWithinExtents(pattern, header.extents, cursor);
		warnEndsEarly(
			pattern,
			cutMidRecord ? 'in the middle of a record' : 'with fewer stitches than its header declares',
			{ count: header.stitchCount, what: 'stitches', read: counted },
		);
	}
	return pattern;
}

/** How far, in 0.1 mm, the part of a design read from a file cut short may reach past the declared extents. */
const extentTolerance = 2;

/** Throws when the stitches read from a file cut short reach past the extents its header declares. */
function expectWithinExtents(pattern: Pattern, extents: ShvExtents, cursor: ByteCursor): void {
	const bounds = boundsOf(pattern, [Command.Stitch, Command.Jump]);
	if (
		bounds &&
		(bounds.minX < extents.left - extentTolerance ||
			bounds.minY < extents.top - extentTolerance ||
			bounds.maxX > extents.right + extentTolerance ||
			bounds.maxY > extents.bottom + extentTolerance)
	)
		cursor.fail(
			`its header declares extents from (${extents.left}, ${extents.top}) to (${extents.right}, ` +
				`${extents.bottom}) in 0.1 mm, but the stitches before the file's end reach from ` +
				`(${bounds.minX}, ${bounds.minY}) to (${bounds.maxX}, ${bounds.maxY})`,
		);
}
