/** Reads Janome JPX, strictly: it has no magic, so a file is JPX only where every part fits. */
import { threadOf, type Pattern, type Thread } from '../pattern';
import { jefThreadChart } from '../threads/jefThreads';
import { ByteCursor, u32leAt } from './binaryIo';
import { readJanomeRecords } from './janomeRecords';

/**
 * The header: the stitch offset (0), a 14-digit date (0x10), the colour count (0x20), then from 0x3c one
 * Janome chart code per colour block and one thread type each. Then the thread table: its count, one
 * 44-byte entry per block (index, red, green, blue and a flag byte, catalogue number, 32-byte name) and a
 * 16-byte brand, ending where the stitches start. Files without the table name the chart codes only.
 */
const dateOffset = 0x10;
const dateLength = 14;
const colourCountOffset = 0x20;
const codesOffset = 0x3c;
const threadEntryBytes = 44;
const nameBytes = 32;
const brandBytes = 16;
const lastChartCode = 78;
/** More colour blocks than any machine file holds: a count beyond it is not a JPX header. */
const mostColours = 1000;

interface Header {
	stitchOffset: number;
	codes: number[];
}

/** The header's stitch offset and chart codes, or a reason the bytes are not a JPX header. */
function header(bytes: Uint8Array): Header | string {
	if (bytes.length < codesOffset + 4)
		return `it has ${bytes.length} bytes, fewer than JPX's header`;
	for (let i = dateOffset; i < dateOffset + dateLength; i++)
		if (bytes[i] < 0x30 || bytes[i] > 0x39) return 'it has no 14-digit date at byte 16';
	const stitchOffset = u32leAt(bytes, 0)!;
	const count = u32leAt(bytes, colourCountOffset)!;
	if (count === 0 || count > mostColours) return `its header names ${count} colours`;
	if (stitchOffset < codesOffset + 4 * count || stitchOffset + 2 > bytes.length)
		return `its stitch offset ${stitchOffset} is not after the header and inside the file`;
	const codes: number[] = [];
	for (let i = 0; i < count; i++) {
		const code = u32leAt(bytes, codesOffset + 4 * i)!;
		if (code > lastChartCode) return `colour ${i + 1} has code ${code}, which Janome's chart lacks`;
		codes.push(code);
	}
	return { stitchOffset, codes };
}

export function looksLikeJpx(bytes: Uint8Array): boolean {
	return typeof header(bytes) !== 'string';
}

function text(cursor: ByteCursor, length: number): string {
	const raw = cursor.latin1(length);
	const end = raw.indexOf('\0');
	return (end < 0 ? raw : raw.slice(0, end)).trim();
}

/** The thread table between the thread types and the stitches, or null for a file without one. */
function threadTable(bytes: Uint8Array, { stitchOffset, codes }: Header): Thread[] | null {
	const cursor: ByteCursor = new ByteCursor(bytes.subarray(0, stitchOffset), 'JPX');
	const typesEnd = codesOffset + 8 * codes.length;
	if (stitchOffset === typesEnd || stitchOffset === codesOffset + 4 * codes.length) return null;
	cursor.seek(typesEnd);
	const count = cursor.u32le();
	if (
		count !== codes.length ||
		typesEnd + 4 + count * threadEntryBytes + brandBytes !== stitchOffset
	)
		cursor.fail('its thread table does not end where the stitches start');
	const entries: Array<Omit<Thread, 'brand'>> = [];
	for (let i = 0; i < count; i++) {
		if (cursor.u32le() !== i) cursor.fail(`its thread table's entry ${i + 1} is out of order`);
		const [red, green, blue] = cursor.slice(4);
		const catalogNumber = String(cursor.u32le());
		entries.push({
			color: (red << 16) | (green << 8) | blue,
			catalogNumber,
			name: text(cursor, nameBytes),
		});
	}
	const brand = text(cursor, brandBytes);
	return entries.map((entry) => threadOf({ ...entry, brand }));
}

export function readJpx(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'JPX');
	const found = header(bytes);
	if (typeof found === 'string') cursor.fail(found);
	const threads =
		threadTable(bytes, found) ?? found.codes.map((code) => jefThreadChart.threadForCode(code));
	const { pattern, blocks } = readJanomeRecords(bytes, found.stitchOffset, 'JPX');
	if (blocks > threads.length)
		cursor.fail(`it has ${blocks} colour blocks, but its header names ${threads.length} colours`);
	pattern.threads = threads;
	return pattern;
}
