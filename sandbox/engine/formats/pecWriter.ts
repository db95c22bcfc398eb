/** Writes a Brother PEC file, and the PEC block (stitches, chart colours, icons) that a PES file carries too. */
import { UnwritablePatternError } from '../errors';
import { normaliseForWriter, patternBounds } from '../normalise';
import { Command, Pattern } from '../pattern';
import { snapToChart } from '../threads/chartSnapping';
import { threadBlocks } from '../threads/colourBlocks';
import { pecThreadChart } from '../threads/pecThreads';
import { ByteBuilder } from './binaryIo';
import type { WriteResult } from './format';
import { pecIconHeight, pecIconStride, writePecIcons } from './pecGraphics';
import {
	colourChangeMarker,
	colourChangeSecond,
	endMarker,
	flagJump,
	flagLong,
	flagTrim,
	maxPecColourBlocks,
	maxPecMove,
	signature,
	stitchSectionOffset,
} from './pecReader';

/** Plain constants, so hot loops do not look the command up on the module for every entry. */
const { Stitch: STITCH, Jump: JUMP, Trim: TRIM, End: END } = Command;

export function writePec(source: Pattern): WriteResult {
	const { pattern, codes, warnings } = prepareForPec(source, 'PEC');
	const out = new ByteBuilder(1024 + pattern.length * 3);
	out.ascii(signature);
	writePecBlock(out, pattern, codes, defaultPecLabel);
	return { bytes: out.toBytes(), warnings };
}

/** The machine shows this name; the pattern model carries no design name. */
export const defaultPecLabel = 'Untitled';

class PecStitchEncoder {
	private x = 0;
	private y = 0;
	private colourToggle = 2;

	constructor(private readonly out: ByteBuilder) {}

	private axis(value: number, flags: number, long: boolean): void {
		if (!long && value >= -64 && value <= 63) {
			this.out.u8(value & 0x7f);
			return;
		}
		const coded = (value & 0x0fff) | ((flagLong | flags) << 8);
		this.out.u8(coded >> 8);
		this.out.u8(coded & 0xff);
	}

	/** Move to (x, y); the caller has already split moves to at most `maxPecMove` per axis. */
	moveTo(x: number, y: number, kind: 'stitch' | 'jump' | 'trim'): void {
		const flags = kind === 'trim' ? flagTrim : kind === 'jump' ? flagJump : 0;
		const long = kind !== 'stitch';
		this.axis(x - this.x, flags, long);
		this.axis(y - this.y, flags, long);
		this.x = x;
		this.y = y;
	}

	trimHere(): void {
		this.moveTo(this.x, this.y, 'trim');
	}

	colourChange(): void {
		this.out.u8(colourChangeMarker);
		this.out.u8(colourChangeSecond);
		this.out.u8(this.colourToggle);
		this.colourToggle = this.colourToggle === 2 ? 1 : 2;
	}

	end(): void {
		this.out.u8(endMarker);
	}
}

function encodeStitches(out: ByteBuilder, pattern: Pattern): void {
	const encoder = new PecStitchEncoder(out);
	const { xs, ys, commands } = pattern;
	let trimPending = false;
	for (let i = 0; i < pattern.length; i++) {
		const command = commands[i];
		if (command === END) break;
		switch (command) {
			case STITCH:
				if (trimPending) encoder.trimHere();
				trimPending = false;
				encoder.moveTo(xs[i], ys[i], 'stitch');
				break;
			case JUMP:
				encoder.moveTo(xs[i], ys[i], trimPending ? 'trim' : 'jump');
				trimPending = false;
				break;
			case TRIM:
				trimPending = true;
				break;
			default:
				if (trimPending) encoder.trimHere();
				trimPending = false;
				encoder.colourChange();
		}
	}
	if (trimPending) encoder.trimHere();
	encoder.end();
}

/**
 * Append a PEC block for `pattern` (normalised: no move beyond `maxPecMove`) to `out`. `codes`
 * holds the PEC chart code of each colour block
 * (blocks start at colour changes and stops; a stop repeats the previous code).
 */
export function writePecBlock(
	out: ByteBuilder,
	pattern: Pattern,
	codes: number[],
	label: string,
): void {
	if (codes.length > maxPecColourBlocks) {
		throw new UnwritablePatternError(
			`A PEC block holds at most ${maxPecColourBlocks} colour blocks; this design ` +
				`has ${codes.length}. Merge colours before converting.`,
		);
	}
	const start = out.length;
	out.ascii('LA:');
	out.ascii(label.slice(0, 8).padEnd(16, ' '));
	out.u8(0x0d);
	out.fill(0x20, 12);
	out.u8(0xff);
	out.u8(0x00);
	out.u8(pecIconStride);
	out.u8(pecIconHeight);
	out.fill(0x20, 12);
	out.u8(codes.length - 1);
	out.bytes(codes);
	out.fill(0x20, start + stitchSectionOffset - out.length);

	const extents = patternBounds(pattern);
	const section = out.length;
	out.u16le(0);
	out.u24le(0);
	out.bytes([0x31, 0xff, 0xf0]);
	// A design longer than the 16-bit fields hold (6.5 m, far past any hoop, which the job warns of) gets
	// their most, 0xffff, as its reader expects, never the size cut to 16 bits.
	out.u16le(Math.min(0xffff, extents.maxX - extents.minX));
	out.u16le(Math.min(0xffff, extents.maxY - extents.minY));
	out.u16le(0x1e0);
	out.u16le(0x1b0);
	encodeStitches(out, pattern);
	out.patchU24le(section + 2, out.length - section);
	writePecIcons(out, pattern, extents, codes.length);
}

export interface PecReadyPattern {
	pattern: Pattern;
	/** PEC chart code of each colour block. */
	codes: number[];
	warnings: string[];
}

/**
 * Split moves to the PEC range and give every colour block its nearest PEC chart code; `exactThreadsKeptIn`
 * says where the format keeps the exact threads too (PES), for the warning.
 */
export function prepareForPec(
	source: Pattern,
	formatLabel: string,
	exactThreadsKeptIn?: string,
): PecReadyPattern {
	const normalised = normaliseForWriter(source, {
		maxStitch: maxPecMove,
		maxJump: maxPecMove,
		label: formatLabel,
	});
	const { codes, warnings } = snapToChart(
		threadBlocks(normalised.pattern),
		pecThreadChart,
		formatLabel,
		exactThreadsKeptIn,
	);
	return { pattern: normalised.pattern, codes, warnings: [...normalised.warnings, ...warnings] };
}
