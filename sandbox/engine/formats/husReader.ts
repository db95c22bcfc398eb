/**
 * Reads Husqvarna Viking HUS, and the stitch part that VIP shares with it. Both open with the same
 * little-endian header: magic (4 bytes), stitch count, colour count, the design's extents (+x, +y, -x,
 * -y as 16-bit values, y up), the offsets of the three compressed streams (commands, x moves, y moves;
 * the y stream runs to the end of the file), an 8-byte text and 2 unknown bytes. HUS follows with one
 * 16-bit chart index per colour. Each stream expands to one byte per stitch: a command (0x80 stitch,
 * 0x81 jump, 0x84 colour change, 0x88 trim, 0x90 end) and signed 0.1 mm moves, y up. A file cut short
 * is read as far as all three streams decode before the cut.
 */
import { tooManyEntries, ceilings } from '../ceilings';
import { UnreadableSourceError } from '../errors';
import { countCommands, RelativePatternBuilder } from '../normalise';
import { boundsOf, Command, type Pattern, type Thread } from '../pattern';
import { husThreadChart } from '../threads/husThreads';
import { signed8, u32leAt } from './binaryIo';
import { warnEndsEarly } from './endsEarly';
import { expandHusqvarnaStream } from './husqvarnaCompression';

/** HUS files open with one of two magics: Star.HUS has the first, the HUS files of other writers the second. */
export const husMagics = [0x00c8fc5d, 0x00c8af5b];
/** Where the colour list starts: after the magic, counts, extents, offsets, text and 2 unknown bytes. */
export const husColourListOffset = 42;

const stitchCode = 0x80;
const jumpCode = 0x81;
const colourChangeCode = 0x84;
const trimCode = 0x88;
const endCode = 0x90;

/** The header fields every HUS and VIP file has, checked against each other and the file's length. */
export interface HusqvarnaHeader {
	stitchCount: number;
	colourCount: number;
	/** The design's declared extents in 0.1 mm, y down (the file stores +x, +y, -x, -y with y up). */
	extents: { minX: number; minY: number; maxX: number; maxY: number };
	commandOffset: number;
	xOffset: number;
	yOffset: number;
}

/** How one member of the family lays out its colours: where they end, at most how many there are. */
export interface HusqvarnaLayout {
	magics: readonly number[];
	label: string;
	/** The first byte after a colour list of `colourCount` entries. */
	colourListEnd(colourCount: number): number;
	maxColours: number;
}

/** The header, or the reason it does not fit the layout (so `detect` and `read` share one check). */
export function parseHusqvarnaHeader(
	bytes: Uint8Array,
	layout: HusqvarnaLayout,
): HusqvarnaHeader | string {
	if (bytes.length < husColourListOffset) return `it is shorter than the ${layout.label} header`;
	if (!layout.magics.includes(u32leAt(bytes, 0)!))
		return `it does not start with the ${layout.label} magic`;
	const stitchCount = u32leAt(bytes, 4)!;
	const colourCount = u32leAt(bytes, 8)!;
	const commandOffset = u32leAt(bytes, 20)!;
	const xOffset = u32leAt(bytes, 24)!;
	const yOffset = u32leAt(bytes, 28)!;
	if (stitchCount === 0) return 'its header declares no stitches';
	if (colourCount > layout.maxColours)
		return `its header declares ${colourCount} colours (at most ${layout.maxColours} fit the format)`;
	if (commandOffset < layout.colourListEnd(colourCount))
		return 'its command stream starts inside the colour list';
	// A y stream at or past the end is a file cut short: the reader finds what decodes before the cut.
	if (!(commandOffset < xOffset && xOffset < yOffset))
		return 'the offsets of its three stitch streams are out of order';
	const extent = (at: number) => signed16le(bytes, at);
	const extents = { maxX: extent(12), minY: -extent(14), minX: extent(16), maxY: -extent(18) };
	return { stitchCount, colourCount, extents, commandOffset, xOffset, yOffset };
}

const signed16le = (bytes: Uint8Array, at: number) =>
	((bytes[at] | (bytes[at + 1] << 8)) << 16) >> 16;

/** How far, in 0.1 mm, the stitches may reach past or stop short of the extents the header declares. */
const extentTolerance = 2;

/**
 * Throws unless the design read agrees with what the header declares: the END as the last of the declared
 * stitches, one colour block per declared colour, and the declared extents. A changed byte in a compressed
 * stream garbles everything after it, and these are what show it. Of a file cut short (`cut`), the part
 * read must have no END, at most the declared colour blocks and stay within the declared extents.
 */
function expectDeclared(
	pattern: Pattern,
	header: HusqvarnaHeader,
	endAt: number,
	label: string,
	cut: boolean,
): void {
	const damaged = (what: string) =>
		new UnreadableSourceError(`The ${label} file is damaged: ${what}.`);
	if (cut) {
		expectWithinDeclared(pattern, header, damaged, endAt);
		return;
	}
	if (endAt !== header.stitchCount - 1)
		throw damaged(
			endAt < 0
				? `its ${header.stitchCount} declared stitches end without the end command`
				: `its end command comes at stitch ${endAt + 1} of the ${header.stitchCount} its header declares`,
		);
	const blocks = countCommands(pattern, Command.ColorChange) + 1;
	if (blocks !== header.colourCount)
		throw damaged(
			`its header declares ${header.colourCount} colours, but its stitches have ${blocks} colour blocks`,
		);
	const bounds = boundsOf(pattern, [Command.Stitch, Command.Jump]);
	const declared = header.extents;
	if (
		bounds &&
		[
			bounds.minX - declared.minX,
			bounds.minY - declared.minY,
			bounds.maxX - declared.maxX,
			bounds.maxY - declared.maxY,
		].some((difference) => Math.abs(difference) > extentTolerance)
	)
		throw outsideExtents(declared, bounds, damaged);
}

type Extents = HusqvarnaHeader['extents'];

const outsideExtents = (
	declared: Extents,
	bounds: Extents,
	damaged: (what: string) => UnreadableSourceError,
) =>
	damaged(
		`its header declares extents from (${declared.minX}, ${declared.minY}) to (${declared.maxX}, ` +
			`${declared.maxY}) in 0.1 mm, but its stitches reach from (${bounds.minX}, ${bounds.minY}) to ` +
			`(${bounds.maxX}, ${bounds.maxY})`,
	);

/** The start of a design cut short: no END among it, no more colour blocks than declared, inside the extents. */
function expectWithinDeclared(
	pattern: Pattern,
	header: HusqvarnaHeader,
	damaged: (what: string) => UnreadableSourceError,
	endAt: number,
): void {
	if (endAt >= 0)
		throw damaged(
			`its end command comes at stitch ${endAt + 1} of the ${header.stitchCount} its header declares`,
		);
	const blocks = countCommands(pattern, Command.ColorChange) + 1;
	if (blocks > header.colourCount)
		throw damaged(
			`its header declares ${header.colourCount} colours, but its stitches have ${blocks} colour blocks`,
		);
	const bounds = boundsOf(pattern, [Command.Stitch, Command.Jump]);
	const declared = header.extents;
	if (
		bounds &&
		(bounds.minX < declared.minX - extentTolerance ||
			bounds.minY < declared.minY - extentTolerance ||
			bounds.maxX > declared.maxX + extentTolerance ||
			bounds.maxY > declared.maxY + extentTolerance)
	)
		throw outsideExtents(declared, bounds, damaged);
}

/**
 * The stitches of a HUS or VIP file whose header has been parsed, checked against its declared counts and
 * extents; threads are the caller's.
 */
export function readHusqvarnaStitches(
	bytes: Uint8Array,
	header: HusqvarnaHeader,
	label: string,
): Pattern {
	const { stitchCount, commandOffset, xOffset, yOffset } = header;
	if (stitchCount > ceilings.patternEntries) throw tooManyEntries();
	// One allocation for the three expanded streams, which every stitch reads side by side.
	const expanded = new Uint8Array(3 * stitchCount);
	const commands = expanded.subarray(0, stitchCount);
	const xs = expanded.subarray(stitchCount, 2 * stitchCount);
	const ys = expanded.subarray(2 * stitchCount);
	// A stream may be cut only where the file ends: each stream wholly inside the file must decode whole.
	const expand = (from: number, to: number, output: Uint8Array, name: string) =>
		from >= bytes.length
			? 0
			: expandHusqvarnaStream(
					bytes.subarray(from, to),
					output,
					`${label} file's ${name} stream`,
					to >= bytes.length,
				);
	const decoded = Math.min(
		expand(commandOffset, xOffset, commands, 'command'),
		expand(xOffset, yOffset, xs, 'x'),
		expand(yOffset, bytes.length, ys, 'y'),
	);
	const cut = decoded < stitchCount;

	const builder = new RelativePatternBuilder(decoded + 2);
	let endAt = -1;
	for (let i = 0; i < decoded; i++) {
		const command = commands[i];
		const dx = signed8(xs[i]);
		const dy = -signed8(ys[i]);
		if (command === stitchCode) {
			builder.stitch(dx, dy);
		} else if (command === jumpCode) {
			builder.jump(dx, dy);
		} else if (command === colourChangeCode) {
			builder.jump(dx, dy);
			builder.colourChange();
		} else if (command === trimCode) {
			builder.jump(dx, dy);
			builder.trim();
		} else if (command === endCode) {
			// Every writer's end command moves nowhere; a move there is another stitch's, shifted into it by a
			// garbled copy in a compressed stream (a changed byte in Star.HUS's y stream did so, read whole).
			if (xs[i] !== 0 || ys[i] !== 0)
				throw new UnreadableSourceError(
					`The ${label} file is damaged: its end command, stitch ${i + 1}, moves the needle ` +
						`(${dx}, ${dy}) in 0.1 mm, where an end command carries no move.`,
				);
			endAt = i;
			break;
		} else {
			throw new UnreadableSourceError(
				`The ${label} file is damaged: stitch ${i + 1} has the unknown command 0x${command.toString(16)}.`,
			);
		}
	}
	const pattern = builder.finish();
	expectDeclared(pattern, header, endAt, label, cut);
	if (cut)
		warnEndsEarly(pattern, 'in the middle of its compressed stitch streams', {
			count: stitchCount,
			what: 'stitches',
			read: decoded,
		});
	return pattern;
}

export const husLayout: HusqvarnaLayout = {
	magics: husMagics,
	label: 'HUS',
	colourListEnd: (colourCount) => husColourListOffset + 2 * colourCount,
	// Each colour is a place in a 29-colour chart; a design rarely has more than a few dozen blocks.
	maxColours: 4096,
};

export function looksLikeHus(bytes: Uint8Array): boolean {
	return typeof parseHusqvarnaHeader(bytes, husLayout) !== 'string';
}

export function readHus(bytes: Uint8Array): Pattern {
	const header = parseHusqvarnaHeader(bytes, husLayout);
	if (typeof header === 'string')
		throw new UnreadableSourceError(`The HUS file is damaged: ${header}.`);
	const threads: Thread[] = [];
	// A file cut inside its colour list holds no stitches, which reading them tells.
	const listed = Math.min(header.colourCount, (bytes.length - husColourListOffset) >> 1);
	for (let i = 0; i < listed; i++) {
		const at = husColourListOffset + 2 * i;
		const code = bytes[at] | (bytes[at + 1] << 8);
		const chartThread = husThreadChart.find(code);
		if (!chartThread) {
			throw new UnreadableSourceError(
				`The HUS file is damaged: colour ${i + 1} is number ${code} of Husqvarna's 29-colour chart.`,
			);
		}
		threads.push(husThreadChart.toThread(chartThread));
	}
	const pattern = readHusqvarnaStitches(bytes, header, 'HUS');
	pattern.threads = threads;
	return pattern;
}
