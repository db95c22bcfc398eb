/**
 * Reads Gunold STC: its labelled header, then records up to the end code, checked against the header's count.
 * A file that ends before its end code (cut short, or in the middle of a record) is read to its last whole
 * record, with the job's ends-early warning, unless it holds more records than its header counts.
 */
import { RelativePatternBuilder } from '../normalise';
import type { Pattern } from '../pattern';
import { ByteCursor, signed8 } from './binaryIo';
import { warnEndsEarly } from './endsEarly';

/**
 * The header is 40 bytes of text: "DESIGN:" and the name, a tab, "STITCHES:" and the count of records up
 * to and including the first end record. Each record is a signed dx and dy (y up) and a code: 1 stitch,
 * 0 jump, 25 end (repeated to the end of the file), and 2 to 24 pick a needle, which is a colour change.
 */
const headerSize = 0x28;
const recordBytes = 3;
const stitchCode = 1;
const jumpCode = 0;
const endCode = 25;
const label = /^DESIGN:[^\t]*\tSTITCHES:\s*(\d+)\s/;

function declaredRecords(bytes: Uint8Array): number | null {
	if (bytes.length < headerSize + recordBytes) return null;
	const match = label.exec(String.fromCharCode(...bytes.subarray(0, headerSize)));
	return match ? Number(match[1]) : null;
}

export function looksLikeStc(bytes: Uint8Array): boolean {
	return declaredRecords(bytes) !== null;
}

export function readStc(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'STC');
	const declared = declaredRecords(bytes);
	if (declared === null)
		return cursor.fail('it does not start with "DESIGN:", a name and "STITCHES:" and a count');
	const builder = new RelativePatternBuilder(
		Math.max(1024, Math.ceil((bytes.length - headerSize) / recordBytes) + 2),
	);
	let sewn = false;
	let at = headerSize;
	for (; at + recordBytes <= bytes.length; at += recordBytes) {
		const code = bytes[at + 2];
		if (code === endCode) break;
		const dx = signed8(bytes[at]);
		const dy = -signed8(bytes[at + 1]);
		if (code === stitchCode) {
			builder.stitch(dx, dy);
			sewn = true;
		} else if (code === jumpCode) builder.jump(dx, dy);
		else if (code < endCode) {
			// Picking the first needle before any stitch is no colour change.
			if (sewn) builder.colourChange();
			builder.jump(dx, dy);
		} else cursor.fail(`the record at byte ${at} has code ${code}, which STC lacks`);
	}
	const records = (at - headerSize) / recordBytes;
	if (at + recordBytes > bytes.length) return endsEarly(builder, bytes, at, records, declared);
	// Writers repeat the end record to the end of the file; one cut in two there leaves the design whole.
	for (at += recordBytes; at + recordBytes <= bytes.length; at += recordBytes)
		if (bytes[at + 2] !== endCode) cursor.fail(`the record at byte ${at} follows the end code`);
	if (records + 1 !== declared)
		cursor.fail(
			`its header counts ${declared} stitches, but the end code is record ${records + 1}`,
		);
	return builder.finish();
}

/**
 * The records of a file that ends before its end code. The header's count includes the end record, so
 * `records` read must be fewer; more is a header that disagrees with its body, refused.
 */
function endsEarly(
	builder: RelativePatternBuilder,
	bytes: Uint8Array,
	at: number,
	records: number,
	declared: number,
): Pattern {
	if (records >= declared)
		new ByteCursor(bytes, 'STC').fail(
			`its header counts ${declared} stitches with the end code, but ${records} come without one`,
		);
	const pattern = builder.finish();
	warnEndsEarly(pattern, at < bytes.length ? 'in the middle of a record' : 'without its end code', {
		count: declared - 1,
		what: 'stitches',
		read: records,
	});
	return pattern;
}
