/**
 * Reads the Brother formats that wrap PEC stitches in a header of their own (PHB, PHC): a signature and
 * label, the PEC chart codes of the colour blocks, preview icons, a chain of sections that each give their
 * length, and last a stitch section that repeats the colour list before PEC's stitch records.
 */
import { countCommands } from '../normalise';
import { Command, type Pattern } from '../pattern';
import { repeatedThreadsAsStops } from '../threads/colourBlocks';
import { pecThreadChart } from '../threads/pecThreads';
import { ByteCursor, hasSignature } from './binaryIo';
import { warnEndsEarly } from './endsEarly';
import { decodePecStitches, expectDeclaredSize, maxPecColourBlocks } from './pecReader';

/** Where one wrapper keeps what the reader needs; the two known ones differ only in these offsets. */
export interface PecWrapperLayout {
	/** Format label for errors, for example 'PHB'. */
	label: string;
	/** The first four bytes; four version digits follow. */
	signature: string;
	/** Offset of the 16-bit colour count, followed by one PEC chart code per colour block. */
	colourCountOffset: number;
	/** Offset of the 32-bit distance to the first section, counted from two bytes before it. */
	sectionPointerOffset: number;
	/** Bytes from the end of the stitch section's colour list to the first stitch record. */
	stitchHeaderBytes: number;
	/** Where the stitch header declares the design's 16-bit width and height, counted back from the first stitch. */
	sizeBeforeStitches: number;
}

/** Bytes a wrapper may hold after its end-of-design marker (none in the known files). */
const trailingBytes = 16;

/**
 * A section starts with its length and the bytes from there to the end of the file; the next section's
 * length follows a 16-bit field after it.
 */
const sectionGap = 2;
/** The stitch section's colour count sits this far past the end of the section before it. */
const colourListAfterSection = 14;
/** The stitch header ends with two 16-bit words: 0x9000 plus where the first stitch lies from the design's corner. */
const offsetWordMark = 0x90;

interface Located {
	codes: Uint8Array;
	stitchStart: number;
	/** Where the header's sections say the file ends: past its end when the file is cut short. */
	declaredEnd: number;
}

function hasVersionedSignature(bytes: Uint8Array, signature: string): boolean {
	if (!hasSignature(bytes, signature) || bytes.length < signature.length + 4) return false;
	for (let i = signature.length; i < signature.length + 4; i++)
		if (bytes[i] < 0x30 || bytes[i] > 0x39) return false;
	return true;
}

/**
 * The length of the section at `start`, whose second field must lead exactly to `declaredEnd`: the end of the
 * file, or for a file cut short, the same place past it for every section.
 */
function sectionLength(cursor: ByteCursor, start: number, declaredEnd: number): number {
	cursor.seek(start);
	const length = cursor.u32le();
	if (start + cursor.u32le() !== declaredEnd)
		cursor.fail('a section of its header does not say where the file ends');
	return length;
}

/** Follows the header to the first stitch record, checking each step; throws where the file does not fit. */
function locateStitches(bytes: Uint8Array, layout: PecWrapperLayout): Located {
	const cursor: ByteCursor = new ByteCursor(bytes, layout.label);
	if (!hasVersionedSignature(bytes, layout.signature))
		cursor.fail(`it does not start with "${layout.signature}" and a four-digit version`);
	cursor.seek(layout.colourCountOffset);
	const count = cursor.u16le();
	if (count === 0 || count > maxPecColourBlocks)
		cursor.fail(`its header names ${count} colour blocks`);
	const codes = cursor.slice(count);
	cursor.seek(layout.sectionPointerOffset);
	const first = layout.sectionPointerOffset - 2 + cursor.u32le();
	cursor.seek(first + 4);
	const declaredEnd = Math.max(bytes.length, first + cursor.u32le());
	const second = first + sectionLength(cursor, first, declaredEnd) + sectionGap;
	cursor.seek(second + sectionLength(cursor, second, declaredEnd) + colourListAfterSection);
	const repeated =
		cursor.u8() === count && cursor.slice(count).every((code, i) => code === codes[i]);
	if (!repeated) cursor.fail("its stitch section does not repeat the header's colour list");
	const stitchStart = cursor.position + layout.stitchHeaderBytes;
	cursor.seek(stitchStart);
	const marked =
		(bytes[stitchStart - 4] & 0xf0) === offsetWordMark &&
		(bytes[stitchStart - 2] & 0xf0) === offsetWordMark;
	if (!marked) cursor.fail('its stitch section header is not where the header chain leads');
	return { codes, stitchStart, declaredEnd };
}

export function looksLikePecWrapper(bytes: Uint8Array, layout: PecWrapperLayout): boolean {
	if (!hasVersionedSignature(bytes, layout.signature)) return false;
	try {
		locateStitches(bytes, layout);
		return true;
	} catch {
		return false;
	}
}

export function readPecWrapper(bytes: Uint8Array, layout: PecWrapperLayout): Pattern {
	const { codes, stitchStart, declaredEnd } = locateStitches(bytes, layout);
	const decoded = { end: 0, cut: false };
	// Only a file whose sections all say it ends further on may be cut short.
	const mayBeCut = declaredEnd > bytes.length;
	const pattern = decodePecStitches(bytes, stitchStart, layout.label, decoded, mayBeCut);
	const cursor: ByteCursor = new ByteCursor(bytes, layout.label);
	if (decoded.cut) {
		expectDeclaredSize(bytes, stitchStart - layout.sizeBeforeStitches, pattern, cursor, true);
		warnEndsEarly(pattern, 'without its end-of-design marker');
	} else {
		// The stitch section is the file's last: an end marker far before the end is a damaged record.
		if (declaredEnd - decoded.end - 1 > trailingBytes)
			cursor.fail(
				`its stitches end ${declaredEnd - decoded.end - 1} bytes before the end of the file, ` +
					'where the stitch section is the last',
			);
		expectDeclaredSize(bytes, stitchStart - layout.sizeBeforeStitches, pattern, cursor);
	}
	const blocks = decoded.cut ? countCommands(pattern, Command.ColorChange) + 1 : codes.length;
	pattern.threads = [...codes.subarray(0, blocks)].map((code) =>
		pecThreadChart.threadForCode(code),
	);
	repeatedThreadsAsStops(pattern);
	return pattern;
}
