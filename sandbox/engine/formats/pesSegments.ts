/** Writes the design objects of a PES header: the CEmbOne and CSewSeg that PE-Design edits. */
import { Command, type Bounds, type Pattern } from '../pattern';
import type { ByteBuilder } from './binaryIo';

/**
 * The PES design objects (CEmbOne holding a CSewSeg) that PE-Design edits; machines sew the PEC block
 * instead. Segments are runs of stitches (flag 0) or a jump from the last stitch to where the jumps end
 * (flag 1), each with its colour (in PES v6, the index of its thread in the header's list); coordinates
 * are relative to the design's bottom-left corner.
 */
const maxWord = 0xffff;
const stitchSegment = 0;
const jumpSegment = 1;
const noSegment = -1;

const STITCH = Command.Stitch;
const JUMP = Command.Jump;
const COLOR_CHANGE = Command.ColorChange;
const STOP = Command.Stop;
const END = Command.End;

function writeObjectHeader(out: ByteBuilder, width: number, height: number): number {
	out.u16le(7);
	out.ascii('CEmbOne');
	out.fill(0, 16);
	// Affine transform placing the design in PE-Design's 130 x 180 mm page.
	out.f32le(1);
	out.f32le(0);
	out.f32le(0);
	out.f32le(1);
	out.f32le(350 + 1300 / 2 - width / 2);
	out.f32le(100 + height + 1800 / 2 - height / 2);
	out.u16le(1);
	out.u16le(0);
	out.u16le(0);
	out.u16le(width);
	out.u16le(height);
	out.fill(0, 8);
	const segmentCountAt = out.length;
	out.u16le(0);
	out.u16le(0xffff);
	out.u16le(0);
	out.u16le(7);
	out.ascii('CSewSeg');
	return segmentCountAt;
}

/**
 * Append the CEmbOne and CSewSeg objects, `colours` giving each colour block's colour; returns how many
 * colour changes the segments log, or null (leaving `out` as it was) when the design does not fit their
 * 16-bit fields, in which case the PES lists no objects and holds only the PEC block.
 */
export function writeSewSegments(
	out: ByteBuilder,
	pattern: Pattern,
	colours: number[],
	extents: Bounds,
): number | null {
	const width = extents.maxX - extents.minX;
	const height = extents.maxY - extents.minY;
	if (width > 0x7fff || height > 0x7fff) return null;
	const start = out.length;
	const segmentCountAt = writeObjectHeader(out, width, height);

	const colourLog: number[] = [];
	let segments = 0;
	let openFlag = noSegment;
	let pointCountAt = 0;
	let points = 0;
	let block = 0;
	let stitchedX = extents.minX;
	let stitchedY = extents.maxY;
	const point = (x: number, y: number): void => {
		out.u16le(x - extents.minX);
		out.u16le(y - extents.maxY);
		points++;
	};
	const close = (): void => {
		if (openFlag !== noSegment) out.patchU16le(pointCountAt, points);
		openFlag = noSegment;
	};
	const open = (flag: number): void => {
		close();
		if (segments > 0) out.u16le(0x8003);
		const code = colours[block];
		if (colourLog.length === 0 || colourLog[colourLog.length - 1] !== code)
			colourLog.push(segments, code);
		out.u16le(flag);
		out.u16le(code);
		pointCountAt = out.length;
		out.u16le(0);
		openFlag = flag;
		points = 0;
		segments++;
	};

	const { xs, ys, commands } = pattern;
	for (let i = 0; i < pattern.length; i++) {
		const command = commands[i];
		if (command === END) break;
		if (command === STITCH) {
			if (openFlag !== stitchSegment || points === maxWord) open(stitchSegment);
			point(xs[i], ys[i]);
			stitchedX = xs[i];
			stitchedY = ys[i];
		} else if (command === JUMP) {
			if (openFlag === jumpSegment) {
				// A run of jumps is one segment ending where the run ends.
				out.patchU16le(out.length - 4, xs[i] - extents.minX);
				out.patchU16le(out.length - 2, ys[i] - extents.maxY);
			} else {
				open(jumpSegment);
				point(stitchedX, stitchedY);
				point(xs[i], ys[i]);
			}
		} else {
			close();
			if (command === COLOR_CHANGE || command === STOP)
				block = Math.min(block + 1, colours.length - 1);
		}
	}
	close();
	if (segments === 0 || segments > maxWord) {
		out.truncate(start);
		return null;
	}
	out.patchU16le(segmentCountAt, segments);
	out.u16le(colourLog.length / 2);
	for (const value of colourLog) out.u16le(value);
	out.u16le(0);
	out.u16le(0);
	return colourLog.length / 2;
}
