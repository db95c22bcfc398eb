/** Reads Eltac EXY, strictly: it has no magic, so a file is EXY only where every part fits. */
import { UnreadableSourceError } from '../errors';
import { RelativePatternBuilder } from '../normalise';
import { boundsOf, Command, type Pattern } from '../pattern';
import { ByteCursor } from './binaryIo';
import { decodeTajimaRecords, endMask } from './dstReader';

/**
 * The header is 256 bytes: filler, then at 0x80 the design's extents as four signed 16-bit numbers (least
 * x, least y, greatest x, greatest y; x may be mirrored, so only the width and height are compared).
 * Tajima's records follow, and the END record is the last of the file.
 */
const headerSize = 0x100;
const extentsOffset = 0x80;
const recordBytes = 3;
/** The two low bits every Tajima record sets. */
const recordBits = 0x03;
/** The header's extents may differ from the stitches' by rounding. */
const extentTolerance = 2;
const sewn: readonly Command[] = [Command.Stitch];

export function looksLikeExy(bytes: Uint8Array): boolean {
	const records = bytes.length - headerSize;
	return (
		records >= recordBytes &&
		records % recordBytes === 0 &&
		(bytes[bytes.length - 1] & endMask) === endMask &&
		(bytes[headerSize + 2] & recordBits) === recordBits
	);
}

export function readExy(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'EXY');
	const records = bytes.length - headerSize;
	if (records < recordBytes || records % recordBytes !== 0)
		cursor.fail(`its ${bytes.length} bytes are not a 256-byte header and whole 3-byte records`);
	cursor.seek(extentsOffset);
	const [minX, minY, maxX, maxY] = [cursor.i16le(), cursor.i16le(), cursor.i16le(), cursor.i16le()];
	const builder = new RelativePatternBuilder(Math.max(1024, records / recordBytes + 2));
	let endAt: number;
	try {
		endAt = decodeTajimaRecords(bytes, headerSize, builder);
	} catch (error) {
		if (!(error instanceof UnreadableSourceError)) throw error;
		return cursor.fail(`its records are not Tajima records (${error.message})`);
	}
	if (endAt !== bytes.length - recordBytes) cursor.fail('its END record is not the last record');
	const pattern = builder.finish();
	const bounds = boundsOf(pattern, sewn) ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 };
	const [width, height] = [bounds.maxX - bounds.minX, bounds.maxY - bounds.minY];
	if (
		Math.abs(maxX - minX - width) > extentTolerance ||
		Math.abs(maxY - minY - height) > extentTolerance
	)
		cursor.fail(
			`its header gives extents of ${maxX - minX} x ${maxY - minY}, but its stitches span ${width} x ${height}`,
		);
	return pattern;
}
