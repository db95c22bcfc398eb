import { normaliseForWriter, patternBounds } from '../normalise';
import { Command, Pattern, type Bounds, type Thread } from '../pattern';
import { snapToChart } from '../threads/chart-snapping';
import { repeatedThreadsAsStops, threadBlocks } from '../threads/colour-blocks';
import { jefThreadChart } from '../threads/jef-threads';
import { ByteBuilder, ByteCursor, signed8, u32leAt } from './binary-io';
import type { FormatModule, WriteResult } from './format';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const {
	Stitch: STITCH,
	Jump: JUMP,
	Trim: TRIM,
	Stop: STOP,
	ColorChange: COLOR_CHANGE,
	End: END,
} = Command;

/**
 * Janome JEF: a little-endian header (stitch offset, date, colour and record counts, hoop code,
 * extents, per-hoop edge distances, 78-colour chart codes) and 2-byte relative stitches with y up;
 * 0x80 escapes a command: 0x01 colour change, 0x02 jump, 0x10 end.
 */

const colourListOffset = 116;
const escape = 0x80;
const colourChangeCode = 0x01;
const jumpCode = 0x02;
const endCode = 0x10;
/** One signed byte per axis, and -128 would read as the escape byte. */
const maxJefMove = 127;
/**
 * JEF has no trim code. A trim is written as three zero-length jumps (the convention DST machines and
 * pyembroidery's trim option share); on reading, a run of that many jumps, or a jump run longer than
 * 3 mm, after sewing counts as trimmed.
 */
const trimJumpCount = 3;
const trimmedJumpLength = 30;

/** Hoop codes the header can name, smallest first, with their size in 0.1 mm. */
const hoops = [
	{ code: 1, width: 500, height: 500 },
	{ code: 0, width: 1100, height: 1100 },
	{ code: 3, width: 1260, height: 1100 },
	{ code: 2, width: 1400, height: 2000 },
	{ code: 4, width: 2000, height: 2000 },
];
const largestHoop = hoops[hoops.length - 1];
/** Hoops whose edge distances the header lists, in header order (the last is the "custom" slot). */
const edgeHoops = [
	{ width: 1100, height: 1100 },
	{ width: 500, height: 500 },
	{ width: 1400, height: 2000 },
	{ width: 1400, height: 2000 },
];

function detect(bytes: Uint8Array): boolean {
	if (bytes.length < colourListOffset + 4) return false;
	const stitchOffset = u32leAt(bytes, 0);
	const colourCount = u32leAt(bytes, 24);
	if (stitchOffset === null || colourCount === null) return false;
	if (colourCount > 1000 || stitchOffset !== colourListOffset + 8 * colourCount) return false;
	if (stitchOffset + 2 > bytes.length) return false;
	// The 14-character date sits at bytes 8-21: digits, or spaces and zeros in some writers' files.
	for (let i = 8; i < 22; i++) {
		const byte = bytes[i];
		if (!(byte >= 0x30 && byte <= 0x39) && byte !== 0x20 && byte !== 0) return false;
	}
	return true;
}

function read(bytes: Uint8Array): Pattern {
	const cursor: ByteCursor = new ByteCursor(bytes, 'JEF');
	const stitchOffset = cursor.u32le();
	cursor.seek(24);
	const colourCount = cursor.u32le();
	if (colourCount * 4 > cursor.length - colourListOffset)
		cursor.fail(`its header claims ${colourCount} colours`);
	cursor.seek(colourListOffset);
	const codes: number[] = [];
	for (let i = 0; i < colourCount; i++) codes.push(Math.abs(cursor.i32le()));
	cursor.seek(stitchOffset);

	const end = bytes.length;
	const pattern = new Pattern(Math.max(16, (end - stitchOffset) >> 1));
	const threads: Thread[] = [];
	if (codes.length) threads.push(jefThreadChart.threadForCode(codes[0]));
	let codeIndex = 0;
	let x = 0;
	let y = 0;
	let sewnSinceCut = false;
	let at = cursor.position;
	const jumps: number[] = [];

	/** A run of jump records: zero-length ones go, and a trimming run after sewing starts with a trim. */
	const flushJumps = (): void => {
		if (jumps.length === 0) return;
		let runX = 0;
		let runY = 0;
		let longest = 0;
		for (let j = 0; j < jumps.length; j += 2) {
			runX += jumps[j];
			runY += jumps[j + 1];
			longest = Math.max(longest, Math.abs(runX), Math.abs(runY));
		}
		if (sewnSinceCut && (jumps.length / 2 >= trimJumpCount || longest > trimmedJumpLength)) {
			pattern.add(x, y, TRIM);
			sewnSinceCut = false;
		}
		for (let j = 0; j < jumps.length; j += 2) {
			if (jumps[j] === 0 && jumps[j + 1] === 0) continue;
			x += jumps[j];
			y += jumps[j + 1];
			pattern.add(x, y, JUMP);
		}
		jumps.length = 0;
	};

	for (;;) {
		if (at + 2 > end) cursor.fail('the stitches end without the end-of-design code');
		const first = bytes[at];
		const second = bytes[at + 1];
		if (first !== escape) {
			flushJumps();
			x += signed8(first);
			y -= signed8(second);
			pattern.add(x, y, STITCH);
			sewnSinceCut = true;
			at += 2;
			continue;
		}
		if (second === endCode) break;
		if (at + 4 > end) cursor.fail('a command is cut off at the end of the file');
		const dx = signed8(bytes[at + 2]);
		const dy = -signed8(bytes[at + 3]);
		at += 4;
		if (second === jumpCode) {
			jumps.push(dx, dy);
			continue;
		}
		flushJumps();
		if (second !== colourChangeCode) break;
		codeIndex++;
		const code = codes[codeIndex];
		// Colour 0 is no thread: the machine only stops (how some writers mark a stop).
		const isStop = code === 0;
		pattern.add(x, y, isStop ? STOP : COLOR_CHANGE);
		if (!isStop) threads.push(jefThreadChart.threadForCode(code));
		sewnSinceCut = false;
		if (dx !== 0 || dy !== 0) {
			jumps.push(dx, dy);
			flushJumps();
		}
	}
	flushJumps();
	pattern.add(x, y, END);
	pattern.threads = threads;
	repeatedThreadsAsStops(pattern);
	return pattern;
}

function smallestHoop(width: number, height: number): (typeof hoops)[number] | undefined {
	return hoops.find((hoop) => width <= hoop.width && height <= hoop.height);
}

/** Distances from each hoop edge to the design (left, top, right, bottom), or -1s when it does not fit. */
function writeHoopEdges(
	out: ByteBuilder,
	extents: { left: number; top: number; right: number; bottom: number },
): void {
	for (const hoop of edgeHoops) {
		const edges = [
			hoop.width / 2 - extents.left,
			hoop.height / 2 - extents.top,
			hoop.width / 2 - extents.right,
			hoop.height / 2 - extents.bottom,
		];
		const fits = edges.every((edge) => edge >= 0);
		for (const edge of edges) out.u32le(fits ? edge : -1);
	}
}

function designExtentsFromCentre(bounds: Bounds): {
	left: number;
	top: number;
	right: number;
	bottom: number;
} {
	return { left: -bounds.minX, top: -bounds.minY, right: bounds.maxX, bottom: bounds.maxY };
}

function encodeStitches(out: ByteBuilder, pattern: Pattern): void {
	let x = 0;
	let y = 0;
	let trimmed = false;
	for (let i = 0; i < pattern.length; i++) {
		const command = pattern.commands[i];
		if (command === END) break;
		if (command === TRIM) {
			if (!trimmed) for (let k = 0; k < trimJumpCount; k++) out.bytes([escape, jumpCode, 0, 0]);
			trimmed = true;
			continue;
		}
		trimmed = false;
		const dx = pattern.xs[i] - x;
		const dy = pattern.ys[i] - y;
		if (command === STITCH) {
			out.u8(dx);
			out.u8(-dy);
		} else if (command === JUMP) {
			out.u8(escape);
			out.u8(jumpCode);
			out.u8(dx);
			out.u8(-dy);
		} else if (command === COLOR_CHANGE || command === STOP) {
			out.u8(escape);
			out.u8(colourChangeCode);
			out.u8(0);
			out.u8(0);
			continue;
		} else {
			continue;
		}
		x = pattern.xs[i];
		y = pattern.ys[i];
	}
	out.u8(escape);
	out.u8(endCode);
}

function write(source: Pattern): WriteResult {
	const normalised = normaliseForWriter(source, {
		maxStitch: maxJefMove,
		maxJump: maxJefMove,
		label: 'JEF',
	});
	const pattern = normalised.pattern;
	const { codes, warnings: colourWarnings } = snapToChart(
		threadBlocks(pattern),
		jefThreadChart,
		'JEF',
	);
	const warnings = [...normalised.warnings, ...colourWarnings];
	const bounds = patternBounds(pattern);
	const width = bounds.maxX - bounds.minX;
	const height = bounds.maxY - bounds.minY;
	// A design larger than every hoop is declared in the largest; the job warns of it (engine/hoops.ts).
	const hoop = smallestHoop(width, height);

	const stitches = new ByteBuilder(pattern.length * 2 + 16);
	encodeStitches(stitches, pattern);

	const out = new ByteBuilder(colourListOffset + codes.length * 8 + stitches.length);
	out.u32le(colourListOffset + codes.length * 8);
	out.u32le(0x14);
	out.ascii(new Date().toISOString().replace(/\D/g, '').slice(0, 14));
	out.u8(0);
	out.u8(0);
	out.u32le(codes.length);
	out.u32le(stitches.length / 2);
	out.u32le((hoop ?? hoops[hoops.length - 1]).code);
	const extents = designExtentsFromCentre(bounds);
	out.u32le(extents.left);
	out.u32le(extents.top);
	out.u32le(extents.right);
	out.u32le(extents.bottom);
	writeHoopEdges(out, extents);
	for (const code of codes) out.u32le(code);
	// Thread type per colour; 0x0D is what Janome's software writes.
	for (let i = 0; i < codes.length; i++) out.u32le(0x0d);
	out.bytes(stitches.toBytes());
	return { bytes: out.toBytes(), warnings };
}

export const jefFormat: FormatModule = {
	info: {
		format: 'jef',
		label: 'Janome JEF',
		extension: 'jef',
		mimeType: 'application/x-jef',
		readable: true,
		writable: true,
		warning:
			"Thread colours are snapped to Janome's 78-colour chart. JEF has no trim command: trims are written as three " +
			'zero-length jumps, and jumps longer than 3 mm read back as trimmed. Hoops named up to 200 x 200 mm.',
	},
	detect,
	detectionStrength: 2,
	read,
	write,
	// The largest of the header's hoop codes (the `hoops` table above; pyembroidery's JefWriter names the same five).
	largestHoop: {
		widthMm: largestHoop.width / 10,
		heightMm: largestHoop.height / 10,
		description: `the ${largestHoop.width / 10} x ${largestHoop.height / 10} mm hoop, the largest a JEF file names`,
	},
};
