/** Reads Janome SEW, strictly: it has no magic, so a file is SEW only where every part fits. */
import type { Pattern } from '../pattern';
import { jefThreadChart } from '../threads/jefThreads';
import { ByteCursor } from './binaryIo';
import { readJanomeRecords } from './janomeRecords';

/**
 * The header starts with a 16-bit colour count and one 16-bit Janome chart code per colour block; the
 * records (janome-records.ts) start at a fixed offset.
 */
const stitchesOffset = 0x1d78;
const lastChartCode = 78;

/** The chart codes of the header, or a reason the header is not SEW's. */
function chartCodes(bytes: Uint8Array): number[] | string {
	if (bytes.length < stitchesOffset + 2)
		return `it has ${bytes.length} bytes, fewer than SEW's header`;
	const count = bytes[0] | (bytes[1] << 8);
	if (count === 0 || 2 + 2 * count > stitchesOffset) return `its header names ${count} colours`;
	const codes: number[] = [];
	for (let i = 0; i < count; i++) {
		const code = bytes[2 + 2 * i] | (bytes[3 + 2 * i] << 8);
		if (code > lastChartCode) return `colour ${i + 1} has code ${code}, which Janome's chart lacks`;
		codes.push(code);
	}
	return codes;
}

export function looksLikeSew(bytes: Uint8Array): boolean {
	return typeof chartCodes(bytes) !== 'string';
}

export function readSew(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'SEW');
	const codes = chartCodes(bytes);
	if (typeof codes === 'string') cursor.fail(codes);
	const { pattern, blocks } = readJanomeRecords(bytes, stitchesOffset, 'SEW');
	if (blocks > codes.length)
		cursor.fail(`it has ${blocks} colour blocks, but its header names ${codes.length} colours`);
	pattern.threads = codes.map((code) => jefThreadChart.threadForCode(code));
	return pattern;
}
