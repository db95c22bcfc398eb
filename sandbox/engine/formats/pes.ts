import { Command, type Pattern } from '../pattern';
import { patternBounds } from '../normalise';
import { ByteBuilder, ByteCursor, u32leAt } from './binary-io';
import { fitsHoop, type FormatModule, type WriteResult } from './format';
import {
	defaultPecLabel,
	looksLikePecBlock,
	pesV1LargestHoop,
	prepareForPec,
	readPecBlock,
	writePecBlock,
} from './pec-block';
import { readPesThreadList } from './pes-thread-list';
import { writeSewSegments } from './pes-sew-segments';

/** Brother PES: a PE-Design header ("#PES" + 4-digit version, PEC offset) followed by the PEC block. */

const signature = /^#PES\d{4}$/;
/** The smaller hoop a PES v1 header can name (100 x 100 mm), in 0.1 mm; anything larger declares 130 x 180. */
const smallHoop = { width: 1000, height: 1000 };

function pesVersion(bytes: Uint8Array): string | null {
	if (bytes.length < 12) return null;
	const text = String.fromCharCode(...bytes.subarray(0, 8));
	return signature.test(text) ? text.slice(4) : null;
}

function detect(bytes: Uint8Array): boolean {
	const pecOffset = u32leAt(bytes, 8);
	return pesVersion(bytes) !== null && pecOffset !== null && looksLikePecBlock(bytes, pecOffset);
}

function read(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'PES');
	const version = pesVersion(bytes);
	if (!version) cursor.fail('it does not start with a "#PES" version signature');
	cursor.seek(8);
	const pecOffset = cursor.u32le();
	if (!looksLikePecBlock(bytes, pecOffset))
		cursor.fail('its header does not point to a PEC stitch block');
	return readPecBlock(bytes, pecOffset, 'PES', readPesThreadList(bytes, version, pecOffset));
}

function write(source: Pattern): WriteResult {
	const { pattern, codes, warnings } = prepareForPec(source, 'PES');
	const extents = patternBounds(pattern);
	const width = extents.maxX - extents.minX;
	const height = extents.maxY - extents.minY;

	const out = new ByteBuilder(64 + pattern.length * 6);
	out.ascii('#PES0001');
	const pecOffsetAt = out.length;
	out.u32le(0);
	out.u16le(1);
	out.u16le(fitsHoop(width, height, smallHoop.width, smallHoop.height) ? 0 : 1);
	const objectCountAt = out.length;
	out.u16le(1);
	out.u16le(0xffff);
	out.u16le(0);
	const hasStitches = pattern.commands.subarray(0, pattern.length).includes(Command.Stitch);
	if (!hasStitches || !writeSewSegments(out, pattern, codes, extents)) {
		out.patchU16le(objectCountAt, 0);
		out.patchU16le(objectCountAt + 2, 0);
	}
	out.patchU32le(pecOffsetAt, out.length);
	writePecBlock(out, pattern, codes, defaultPecLabel);
	return { bytes: out.toBytes(), warnings };
}

export const pesFormat: FormatModule = {
	info: {
		format: 'pes',
		label: 'Brother PES',
		extension: 'pes',
		mimeType: 'application/x-pes',
		readable: true,
		writable: true,
		warning:
			"Written as PES version 1: thread colours are snapped to Brother's 64-colour PEC chart, and the header " +
			'declares at most a 130 x 180 mm hoop. Reads versions 1 to 10; PE-Design objects beyond the stitches are ignored.',
	},
	detect,
	detectionStrength: 3,
	read,
	write,
	largestHoop: pesV1LargestHoop,
};
