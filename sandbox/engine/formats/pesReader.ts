/** Reads Brother PES: the version, the thread list of PE-Design headers, and the PEC block it points to. */
import { UnreadableSourceError } from '../errors';
import { threadOf, type Pattern, type Thread } from '../pattern';
import { ByteCursor, u32leAt } from './binaryIo';
import { looksLikePecBlock, readPecBlock } from './pecReader';

const signature = /^#PES\d{4}$/;

function pesVersion(bytes: Uint8Array): string | null {
	if (bytes.length < 12) return null;
	const text = String.fromCharCode(...bytes.subarray(0, 8));
	return signature.test(text) ? text.slice(4) : null;
}

export function looksLikePes(bytes: Uint8Array): boolean {
	const pecOffset = u32leAt(bytes, 8);
	return pesVersion(bytes) !== null && pecOffset !== null && looksLikePecBlock(bytes, pecOffset);
}

export function readPes(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'PES');
	const version = pesVersion(bytes);
	if (!version) cursor.fail('it does not start with a "#PES" version signature');
	cursor.seek(8);
	const pecOffset = cursor.u32le();
	if (!looksLikePecBlock(bytes, pecOffset))
		cursor.fail('its header does not point to a PEC stitch block');
	return readPecBlock(bytes, pecOffset, 'PES', readPesThreadList(bytes, version, pecOffset));
}

/**
 * Where the thread list sits in a PES header, per version: bytes skipped after the five metadata
 * strings, around the optional hoop-name and image-file strings, before the object counts.
 */
interface HeaderLayout {
	hoopNameSkip?: number;
	imageSkip: number;
	afterImageSkip: number;
}

const layouts: Record<string, HeaderLayout> = {
	'0050': { imageSkip: 24, afterImageSkip: 24 },
	'0055': { imageSkip: 24, afterImageSkip: 24 },
	'0056': { imageSkip: 24, afterImageSkip: 24 },
	'0060': { imageSkip: 36, afterImageSkip: 24 },
	'0070': { imageSkip: 36, afterImageSkip: 24 },
	'0080': { imageSkip: 38, afterImageSkip: 26 },
	'0090': { hoopNameSkip: 14, imageSkip: 30, afterImageSkip: 34 },
	'0100': { hoopNameSkip: 14, imageSkip: 38, afterImageSkip: 34 },
};

/** A thread entry takes at least this many bytes, which bounds a believable thread count. */
const minThreadBytes = 12;

function pesString(cursor: ByteCursor): string {
	return cursor.latin1(cursor.u8());
}

function readThread(cursor: ByteCursor): Thread {
	const catalogNumber = pesString(cursor);
	const color = cursor.u24be();
	cursor.skip(5);
	const name = pesString(cursor);
	const brand = pesString(cursor);
	pesString(cursor);
	return threadOf({ color, name, catalogNumber, brand });
}

/**
 * The exact threads a PES v5+ header lists, or an empty list when the version has none or the
 * header holds objects (fills, motifs) this reader does not walk; the PEC chart then names colours.
 */
function readPesThreadList(bytes: Uint8Array, version: string, pecOffset: number): Thread[] {
	const layout = layouts[version];
	if (!layout) return [];
	const cursor = new ByteCursor(bytes.subarray(0, pecOffset), 'PES');
	try {
		cursor.seek(12 + 4);
		for (let i = 0; i < 5; i++) pesString(cursor);
		if (layout.hoopNameSkip !== undefined) {
			cursor.skip(layout.hoopNameSkip);
			pesString(cursor);
		}
		cursor.skip(layout.imageSkip);
		pesString(cursor);
		cursor.skip(layout.afterImageSkip);
		const programmableFills = cursor.u16le();
		const motifs = cursor.u16le();
		const featherPatterns = cursor.u16le();
		if (programmableFills || motifs || featherPatterns) return [];
		const count = cursor.u16le();
		if (count * minThreadBytes > cursor.remaining) return [];
		const threads: Thread[] = [];
		for (let i = 0; i < count; i++) threads.push(readThread(cursor));
		return threads;
	} catch (error) {
		// The header is optional detail: a damaged one still leaves the PEC block's chart colours.
		if (error instanceof UnreadableSourceError) return [];
		throw error;
	}
}
