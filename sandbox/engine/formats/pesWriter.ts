/**
 * Writes Brother PES version 6: a PE-Design header listing each colour block's thread exactly (brand,
 * catalogue code, name, RGB), the design objects PE-Design edits, then the PEC block Brother machines sew,
 * whose colours are the nearest of PEC's 64-colour chart, and the colour addendum PE-Design writes after it.
 */
import { patternBounds } from '../normalise';
import { Command, type Pattern, type Thread } from '../pattern';
import { threadBlocks } from '../threads/colourBlocks';
import { pecThreadChart } from '../threads/pecThreads';
import { ByteBuilder } from './binaryIo';
import { fitsHoop, type WriteResult } from './format';
import { defaultPecLabel, prepareForPec, writePecBlock } from './pecWriter';
import { writeSewSegments } from './pesSegments';

/** The two hoops the header names, by its hoop flag; a design that fits neither still declares the larger. */
const hoops = [
	{ flag: 0, widthMm: 100, heightMm: 100 },
	{ flag: 1, widthMm: 130, heightMm: 180 },
];

/**
 * PE-Design's page settings after the hoop size, as PE-Design writes them: existing design area off, a
 * 200 x 200 mm page in 100 mm sections, its background and foreground colours, grid shown with axes, not
 * snapped, 10 mm apart, curves on, entry and exit points not optimised.
 */
const pageSettings = [0, 200, 200, 100, 100, 100, 7, 19, 1, 1, 0, 100, 1, 0];

/** A thread of the header's list that PE-Design takes as given, not from one of its own charts. */
const customThread = 0x0a;

export function writePes(source: Pattern): WriteResult {
	const { pattern, codes, warnings } = prepareForPec(
		source,
		'PES',
		'its header, which PE-Design reads',
	);
	const extents = patternBounds(pattern);
	const width = extents.maxX - extents.minX;
	const height = extents.maxY - extents.minY;
	const hoop = hoops.find((candidate) =>
		fitsHoop(width, height, candidate.widthMm * 10, candidate.heightMm * 10),
	);
	const blocks = threadBlocks(pattern);
	// A block the design gave no thread is listed as the chart thread its PEC code names.
	const threads = blocks.threads.map((thread, block) =>
		blocks.defaulted[block] ? pecThreadChart.threadForCode(codes[block]) : thread,
	);

	const out = new ByteBuilder(1024 + pattern.length * 6);
	out.ascii('#PES0060');
	const pecOffsetAt = out.length;
	out.u32le(0);
	writeHeader(out, hoop ?? hoops[hoops.length - 1], threads);
	const objectCountAt = out.length;
	out.u16le(1);
	out.u16le(0xffff);
	out.u16le(0);
	const hasStitches = pattern.commands.subarray(0, pattern.length).includes(Command.Stitch);
	const colourLog = hasStitches
		? writeSewSegments(
				out,
				pattern,
				threads.map((_, block) => block),
				extents,
			)
		: null;
	if (colourLog === null) {
		out.patchU16le(objectCountAt, 0);
		out.patchU16le(objectCountAt + 2, 0);
	} else {
		// Version 6 orders its objects after them: none nested, each colour change in turn.
		out.u32le(0);
		out.u32le(0);
		for (let i = 0; i < colourLog; i++) {
			out.u32le(i);
			out.u32le(0);
		}
	}
	out.patchU32le(pecOffsetAt, out.length);
	writePecBlock(out, pattern, codes, defaultPecLabel);
	writeColourAddendum(out, codes, threads);
	return { bytes: out.toBytes(), warnings };
}

/** A PES string: a length byte, then up to 255 Latin-1 characters. */
function pesString(out: ByteBuilder, text: string | undefined): void {
	const value = (text ?? '').slice(0, 255);
	out.u8(value.length);
	out.ascii(value);
}

function writeHeader(out: ByteBuilder, hoop: (typeof hoops)[number], threads: Thread[]): void {
	out.u16le(hoop.flag);
	out.ascii('02');
	// Name, category, author, keywords and comments: PE-Design names the design by its file.
	for (let field = 0; field < 5; field++) pesString(out, '');
	out.u16le(0);
	out.u16le(0);
	out.u16le(hoop.widthMm);
	out.u16le(hoop.heightMm);
	for (const setting of pageSettings) out.u16le(setting);
	pesString(out, '');
	// The design's placement on the page: the identity transform.
	for (const value of [1, 0, 0, 1, 0, 0]) out.f32le(value);
	// No programmable fills, motifs or feather patterns: only the threads follow.
	out.u16le(0);
	out.u16le(0);
	out.u16le(0);
	out.u16le(threads.length);
	for (const thread of threads) {
		pesString(out, thread.catalogNumber);
		out.bytes([(thread.color >> 16) & 0xff, (thread.color >> 8) & 0xff, thread.color & 0xff]);
		out.u8(0);
		out.u32le(customThread);
		pesString(out, thread.name);
		pesString(out, thread.brand);
		pesString(out, '');
	}
}

/** After the PEC block: the chart codes again in 128 bytes, a blank record per thread, then each RGB. */
function writeColourAddendum(out: ByteBuilder, codes: number[], threads: Thread[]): void {
	const start = out.length;
	out.u8(codes.length - 1);
	out.bytes(codes);
	out.padTo(start + 128, 0x20);
	out.fill(0, 0x90 * threads.length);
	for (const thread of threads) out.u24le(thread.color & 0xffffff);
	out.u16le(0);
}
