/** Reads Data Stitch STX: its labelled header, then the EXP records its stitch offset points to. */
import { UnreadableSourceError } from '../errors';
import type { Pattern } from '../pattern';
import { u32leAt } from './binary-io';
import { readExp } from './exp-reader';

/** "STX", a version such as "1.00", then three 32-bit offsets: colour table, second table, stitches. */
const label = /^STX\d\.\d\d/;
const offsetsAt = 0x0c;
const headerEnd = 0x18;

function stitchOffset(bytes: Uint8Array): number | null {
	if (bytes.length < headerEnd) return null;
	if (!label.test(String.fromCharCode(...bytes.subarray(0, 7)))) return null;
	const colours = u32leAt(bytes, offsetsAt)!;
	const second = u32leAt(bytes, offsetsAt + 4)!;
	const stitches = u32leAt(bytes, offsetsAt + 8)!;
	const ordered =
		headerEnd <= colours && colours <= second && second <= stitches && stitches < bytes.length;
	return ordered ? stitches : null;
}

export function looksLikeStx(bytes: Uint8Array): boolean {
	return stitchOffset(bytes) !== null;
}

export function readStx(bytes: Uint8Array): Pattern {
	const start = stitchOffset(bytes);
	if (start === null)
		throw new UnreadableSourceError(
			'The STX file is damaged: it does not start with "STX", a version and table offsets in order ' +
				'inside the file.',
		);
	try {
		return readExp(bytes.subarray(start));
	} catch (error) {
		if (!(error instanceof UnreadableSourceError)) throw error;
		throw new UnreadableSourceError(
			`The STX file is damaged: its stitch records at byte ${start} are not EXP records (${error.message})`,
		);
	}
}
