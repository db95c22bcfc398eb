/** Reads Tajima TBF: the labelled header with its needle order and needle threads, then 3-byte records. */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import { threadOf, type Pattern, type Thread } from '../pattern';
import { hasSignature, signed8 } from './binaryIo';
import { warnEndsEarly } from './endsEarly';

export const headerSize = 0x600;
export const maxStep = 127;
export const labelOffset = 0x80;
/** `DO:` then one needle number (1-based) per colour block, 256 at most. */
export const needleOrderLabel = 0x107;
export const needleOrderOffset = 0x10a;
export const needleOrderLength = 0x100;
/** `DA:` then 5 bytes per needle: 'E', red, green, blue, ' '. */
export const needleThreadsLabel = 0x20b;
export const needleThreadsOffset = 0x20e;
/** Where the needle threads' room ends: the header's closing `\r\x1a`. */
export const needleThreadsEnd = 0x376;
export const threadEntryLead = 0x45;

export const stitchCode = 0x80;
export const needleCode = 0x81;
export const trimCode = 0x86;
export const endCode = 0x8f;
export const moveCode = 0x90;
export const stopCode = 0x40;
/** The DOS end-of-file mark Tajima's software writes after the end record. */
export const endOfFile = 0x1a;

/** The threads the header gives the machine's needles, in needle order. */
function needleThreads(bytes: Uint8Array): Thread[] {
	const threads: Thread[] = [];
	for (let at = needleThreadsOffset; at + 4 <= needleThreadsEnd; at += 5) {
		if (bytes[at] !== threadEntryLead) break;
		threads.push(threadOf({ color: (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3] }));
	}
	return threads;
}

/** Block k is sewn with needle DO[k]; its thread is that needle's, when the header gives one. */
function blockThreads(bytes: Uint8Array, blocks: number): Thread[] {
	const needles = needleThreads(bytes);
	const threads: Thread[] = [];
	for (let block = 0; block < Math.min(blocks, needleOrderLength); block++) {
		const thread = needles[bytes[needleOrderOffset + block] - 1];
		if (!thread) return [];
		threads.push({ ...thread });
	}
	return threads;
}

function damaged(problem: string): UnreadableSourceError {
	return new UnreadableSourceError(`The TBF file is damaged: ${problem}.`);
}

export function readTbf(bytes: Uint8Array): Pattern {
	if (!looksLikeTbf(bytes))
		throw damaged('its header lacks the LA:, DO: and DA: fields of a TBF header');
	const builder = new RelativePatternBuilder(Math.max(1024, (bytes.length - headerSize) / 3 + 2));
	let blocks = 1;
	let sewn = false;
	let ended = false;
	let offset = headerSize;
	for (; offset + 3 <= bytes.length; offset += 3) {
		const control = bytes[offset + 2];
		const dx = signed8(bytes[offset]);
		const dy = -signed8(bytes[offset + 1]);
		if (control === stitchCode) {
			builder.stitch(dx, dy);
			sewn = true;
		} else if (control === moveCode) {
			// A move of nothing is Tajima's trim.
			if (dx === 0 && dy === 0) builder.trim();
			else builder.jump(dx, dy);
		} else if (control === needleCode) {
			builder.jump(dx, dy);
			// A needle chosen before anything is sewn is block 0's own (DO's first entry).
			if (sewn || builder.pattern.length > 0) {
				builder.colourChange();
				blocks++;
			}
		} else if (control === trimCode) {
			builder.trim();
			builder.jump(dx, dy);
		} else if (control === stopCode) {
			builder.jump(dx, dy);
			builder.stop();
		} else if (control === endCode) {
			ended = true;
			break;
		} else {
			throw damaged(
				`record ${(offset - headerSize) / 3 + 1} has the control 0x${control.toString(16)}, which TBF does not use`,
			);
		}
	}
	if (!ended) {
		// Cut short: read up to its last whole record, as DST is (TBF declares no count to compare).
		const pattern = builder.finish();
		pattern.threads = blockThreads(bytes, blocks);
		const midRecord = (bytes.length - headerSize) % 3 !== 0;
		warnEndsEarly(
			pattern,
			`${midRecord ? 'in the middle of a record, ' : ''}without its END record`,
		);
		return pattern;
	}
	const rest = bytes.length - offset - 3;
	if (rest > 1 || (rest === 1 && bytes[bytes.length - 1] !== endOfFile))
		throw damaged(`${rest} bytes follow its end record`);
	const pattern = builder.finish();
	pattern.threads = blockThreads(bytes, blocks);
	return pattern;
}

/** Tajima's labelled header: LA: at 0x80, the needle order DO: and the needle threads DA: where TBF puts them. */
export function looksLikeTbf(bytes: Uint8Array): boolean {
	return (
		bytes.length >= headerSize + 3 &&
		hasSignature(bytes.subarray(labelOffset), 'LA:') &&
		hasSignature(bytes.subarray(needleOrderLabel), 'DO:') &&
		hasSignature(bytes.subarray(needleThreadsLabel), 'DA:')
	);
}
