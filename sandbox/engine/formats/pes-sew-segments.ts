import { Command, type Pattern } from '../pattern';
import type { ByteBuilder } from './binary-io';
import type { Bounds } from '../normalise';

/**
 * The PES v1 design objects (CEmbOne holding a CSewSeg) that PE-Design edits; machines sew the
 * PEC block instead. Coordinates are relative to the design's bottom-left corner.
 */

interface Segment {
	/** 0 = stitches, 1 = a jump from the last stitch to the next. */
	flag: number;
	colourCode: number;
	points: number[];
}

const maxWord = 0xffff;

function collectSegments(pattern: Pattern, codes: number[], extents: Bounds): Segment[] {
	const segments: Segment[] = [];
	const { xs, ys, commands } = pattern;
	let block = 0;
	let stitchedX = extents.minX;
	let stitchedY = extents.maxY;
	let current: Segment | undefined;
	for (let i = 0; i < pattern.length; i++) {
		const command = commands[i];
		if (command === Command.End) break;
		if (command === Command.ColorChange || command === Command.Stop) {
			block = Math.min(block + 1, codes.length - 1);
			current = undefined;
			continue;
		}
		const x = xs[i] - extents.minX;
		const y = ys[i] - extents.maxY;
		if (command === Command.Stitch) {
			if (!current || current.flag !== 0 || current.points.length >= 2 * maxWord) {
				current = { flag: 0, colourCode: codes[block], points: [] };
				segments.push(current);
			}
			current.points.push(x, y);
			stitchedX = xs[i];
			stitchedY = ys[i];
		} else if (command === Command.Jump) {
			if (!current || current.flag !== 1) {
				current = {
					flag: 1,
					colourCode: codes[block],
					points: [stitchedX - extents.minX, stitchedY - extents.maxY, x, y],
				};
				segments.push(current);
			}
			current.points[2] = x;
			current.points[3] = y;
		} else {
			current = undefined;
		}
	}
	return segments;
}

/**
 * Append the CEmbOne and CSewSeg objects; returns false (writing nothing) when the design is too
 * big for their 16-bit fields, in which case the PES lists no objects and holds only the PEC block.
 */
export function writeSewSegments(out: ByteBuilder, pattern: Pattern, codes: number[], extents: Bounds): boolean {
	const segments = collectSegments(pattern, codes, extents);
	const width = extents.maxX - extents.minX;
	const height = extents.maxY - extents.minY;
	if (segments.length === 0 || segments.length > maxWord || width > 0x7fff || height > 0x7fff) return false;

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
	out.u16le(segments.length);
	out.u16le(0xffff);
	out.u16le(0);

	out.u16le(7);
	out.ascii('CSewSeg');
	const colourLog: number[] = [];
	let previousCode = -1;
	segments.forEach((segment, index) => {
		if (index > 0) out.u16le(0x8003);
		if (segment.colourCode !== previousCode) {
			colourLog.push(index, segment.colourCode);
			previousCode = segment.colourCode;
		}
		out.u16le(segment.flag);
		out.u16le(segment.colourCode);
		out.u16le(segment.points.length / 2);
		for (const value of segment.points) out.u16le(value);
	});
	out.u16le(colourLog.length / 2);
	for (const value of colourLog) out.u16le(value);
	out.u16le(0);
	out.u16le(0);
	return true;
}
