/** Writes Janome JEF: the header with its hoop code and edge distances, chart colours, then the stitches. */
import { normaliseForWriter, patternBounds } from '../normalise';
import { Command, Pattern, type Bounds } from '../pattern';
import { snapToChart } from '../threads/chartSnapping';
import { threadBlocks } from '../threads/colourBlocks';
import { jefThreadChart } from '../threads/jefThreads';
import { ByteBuilder } from './binaryIo';
import type { WriteResult } from './format';
import {
	colourChangeCode,
	colourListOffset,
	endCode,
	escape,
	jumpCode,
	maxJefMove,
	trimJumpCount,
} from './jefReader';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch, Jump, Trim, Stop, ColorChange, End } = Command;

/** Hoop codes the header can name, smallest first, with their size in 0.1 mm. */
const hoops = [
	{ code: 1, width: 500, height: 500 },
	{ code: 0, width: 1100, height: 1100 },
	{ code: 3, width: 1260, height: 1100 },
	{ code: 2, width: 1400, height: 2000 },
	{ code: 4, width: 2000, height: 2000 },
];
export const largestHoop = hoops[hoops.length - 1];
/** Hoops whose edge distances the header lists, in header order (the last is the "custom" slot). */
const edgeHoops = [
	{ width: 1100, height: 1100 },
	{ width: 500, height: 500 },
	{ width: 1400, height: 2000 },
	{ width: 1400, height: 2000 },
];

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
		if (command === End) break;
		if (command === Trim) {
			if (!trimmed) for (let k = 0; k < trimJumpCount; k++) out.bytes([escape, jumpCode, 0, 0]);
			trimmed = true;
			continue;
		}
		trimmed = false;
		const dx = pattern.xs[i] - x;
		const dy = pattern.ys[i] - y;
		if (command === Stitch) {
			out.u8(dx);
			out.u8(-dy);
		} else if (command === Jump) {
			out.u8(escape);
			out.u8(jumpCode);
			out.u8(dx);
			out.u8(-dy);
		} else if (command === ColorChange || command === Stop) {
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

export function writeJef(source: Pattern): WriteResult {
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
