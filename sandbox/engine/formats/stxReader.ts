/** Reads Data Stitch STX: its labelled header, its colours, then the EXP records its stitch offset points to. */
import { UnreadableSourceError } from '../errors';
import { countCommands } from '../normalise';
import { Command, threadOf, type Pattern, type Thread } from '../pattern';
import { u32leAt } from './binaryIo';
import { warnEndsEarly } from './endsEarly';
import { control as expControl, readExp } from './expReader';

/**
 * "STX", a version such as "1.00", then three 32-bit offsets: the palette, the colour list and the
 * stitches. The palette is 16 colours of three 6-bit channels (red, green, blue); the colour list gives
 * each colour block's place in it as a big-endian 16-bit number (writers fill the list past the last
 * block, so only the first entries count).
 */
const label = /^STX\d\.\d\d/;
const offsetsAt = 0x0c;
const headerEnd = 0x18;
const paletteColours = 16;
const paletteBytes = paletteColours * 3;
const channelTop = 63;
/** Colour-list entries writers fill, whatever the design's blocks: Star.STX's list and real files' 120-entry ones. */
const filledListEntries = 100;

interface Layout {
	palette: number;
	colourList: number;
	stitches: number;
}

function layout(bytes: Uint8Array): Layout | null {
	if (bytes.length < headerEnd) return null;
	if (!label.test(String.fromCharCode(...bytes.subarray(0, 7)))) return null;
	const palette = u32leAt(bytes, offsetsAt)!;
	const colourList = u32leAt(bytes, offsetsAt + 4)!;
	const stitches = u32leAt(bytes, offsetsAt + 8)!;
	const ordered =
		headerEnd <= palette &&
		palette <= colourList &&
		colourList <= stitches &&
		stitches < bytes.length;
	return ordered ? { palette, colourList, stitches } : null;
}

export function looksLikeStx(bytes: Uint8Array): boolean {
	return layout(bytes) !== null;
}

const channel = (value: number) => Math.round((value * 255) / channelTop);

/**
 * Each colour block's palette colour; throws where the tables are not laid out as described above (a
 * header whose offsets point into another format's bytes, or a design whose blocks its tables do not list).
 */
function blockThreads(
	bytes: Uint8Array,
	{ palette, colourList, stitches }: Layout,
	blocks: number,
): Thread[] {
	const damaged = (what: string) => new UnreadableSourceError(`The STX file is damaged: ${what}.`);
	if (colourList - palette !== paletteBytes)
		throw damaged(
			`its palette takes ${colourList - palette} bytes, not the ${paletteBytes} of 16 colours`,
		);
	if ((stitches - colourList) / 2 < blocks)
		throw damaged(`its colour list has room for fewer than the design's ${blocks} colour blocks`);
	// Writers fill the whole palette, and the colour list's first 100 entries (past the last block too),
	// with valid entries; real files hold text after those 100 when the list has room for more.
	for (let at = palette; at < colourList; at++)
		if (bytes[at] > channelTop)
			throw damaged(`its palette has a channel of ${bytes[at]}, above ${channelTop}`);
	const entries = Math.max(blocks, Math.min((stitches - colourList) >> 1, filledListEntries));
	for (let at = colourList; at < colourList + 2 * entries; at += 2)
		if (((bytes[at] << 8) | bytes[at + 1]) >= paletteColours)
			throw damaged(`its colour list names a colour past the palette's ${paletteColours}`);
	// What follows them is text ("~~~~~ 2225~~~  514~  3495~~~\r\n"), never stitch records: a changed
	// stitch offset that moves the records' start would otherwise leave some of them in the list.
	for (let at = colourList + 2 * entries; at < stitches; at++)
		if ((bytes[at] < 0x20 || bytes[at] > 0x7e) && bytes[at] !== 0x0d && bytes[at] !== 0x0a)
			throw damaged(
				`its colour list ends in byte 0x${bytes[at].toString(16)} at ${at}, not in text`,
			);
	const threads: Thread[] = [];
	for (let block = 0; block < blocks; block++) {
		const place = (bytes[colourList + 2 * block] << 8) | bytes[colourList + 2 * block + 1];
		const [red, green, blue] = bytes.subarray(palette + 3 * place, palette + 3 * place + 3);
		threads.push(threadOf({ color: (channel(red) << 16) | (channel(green) << 8) | channel(blue) }));
	}
	return threads;
}

/** Where STX1.10 headers declare the stitch stream's records (Star.STX, STX1.00, leaves it 0). */
const declaredRecordsAt = 0x20;

/** How many fewer records than declared a whole file may hold: real files hold 2 to 15 fewer. */
function missingRecordsSlack(declared: number): number {
	return Math.max(20, Math.ceil(declared * 0.01));
}

/** The stitch records' whole length from `start`, and how many records that is: a cut file stops mid-record. */
function wholeRecords(bytes: Uint8Array, start: number): { end: number; records: number } {
	let at = start;
	let records = 0;
	for (;;) {
		const size = bytes[at] === expControl ? 4 : 2;
		if (at + size > bytes.length) return { end: at, records };
		at += size;
		records++;
	}
}

export function readStx(bytes: Uint8Array): Pattern {
	const found = layout(bytes);
	if (found === null)
		throw new UnreadableSourceError(
			'The STX file is damaged: it does not start with "STX", a version and table offsets in order ' +
				'inside the file.',
		);
	// STX has no end record: a cut file is told by a record cut in two, or by fewer records than declared.
	const { end, records } = wholeRecords(bytes, found.stitches);
	const declared = u32leAt(bytes, declaredRecordsAt)!;
	let pattern: Pattern;
	try {
		pattern = readExp(bytes.subarray(found.stitches, end));
	} catch (error) {
		if (!(error instanceof UnreadableSourceError)) throw error;
		throw new UnreadableSourceError(
			`The STX file is damaged: its stitch records at byte ${found.stitches} are not EXP records (${error.message})`,
		);
	}
	pattern.threads = blockThreads(bytes, found, countCommands(pattern, Command.ColorChange) + 1);
	const short = declared > 0 && records + missingRecordsSlack(declared) < declared;
	if (end < bytes.length || short)
		warnEndsEarly(
			pattern,
			end < bytes.length
				? 'in the middle of a record'
				: 'with fewer records than its header declares',
			declared > 0 ? { count: declared, what: 'records', read: records } : undefined,
		);
	return pattern;
}
