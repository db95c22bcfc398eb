import type { Pattern } from '../pattern';

/** What GET /formats shows of a format. */
export interface FormatInfo {
	/** Lower-case key used in the API, for example `dst`. */
	format: string;
	label: string;
	/** File extension without the dot. */
	extension: string;
	mimeType: string;
	readable: boolean;
	writable: boolean;
	/** Honest compatibility note for users, or null. */
	warning: string | null;
}

export interface WriteResult {
	bytes: Uint8Array;
	/** What the writer had to change to fit the format (colours snapped, moves split...). */
	warnings: string[];
}

export type DetectionStrength = 1 | 2 | 3;

/** The largest hoop a format's machines commonly take, which a design may fit either way round. */
export interface HoopLimit {
	/** Shorter and longer side of the sewing field, mm. */
	widthMm: number;
	heightMm: number;
	/** Whose hoop this is, in the user's words, e.g. "the 130 x 180 mm hoop a PES v1 file declares". */
	description: string;
}

/** A design fits a hoop either way round: machines and their software turn it by 90 degrees. Any one unit. */
export function fitsHoop(
	width: number,
	height: number,
	hoopWidth: number,
	hoopHeight: number,
): boolean {
	return (
		(width <= hoopWidth && height <= hoopHeight) || (width <= hoopHeight && height <= hoopWidth)
	);
}

/**
 * One embroidery file format: its reader and writer side by side. For reader authors (the rule is
 * sandbox/engine/detection.ts): strength 3 means a magic, a signature or labelled header only this format
 * has, and a file it accepts is read as this format whatever its name, so never claim 3 for a mere
 * plausibility check. Strength 1 or 2 (no magic) makes the registry run `read` over the whole file before
 * it counts as this format, so `read` must be strict: throw on any record, count, length or offset that
 * does not fit (never stop quietly and return what came before), and on positions no design reaches.
 */
export interface FormatModule {
	info: FormatInfo;
	/** True when the bytes look like this format (magic bytes and structure, not the name); cheap. */
	detect?(bytes: Uint8Array): boolean;
	/**
	 * How much `detect` proves: a magic signature or labelled header (3), a strict record structure (2),
	 * or mere plausibility (1). Only 3 claims a file on `detect` alone; 1 and 2 also need `read` to
	 * take the whole file. Required, so a new format says how far its check can be trusted.
	 */
	detectionStrength: DetectionStrength;
	/** The design in the file; throws (UnreadableSourceError) on anything that does not fit the format. */
	read?(bytes: Uint8Array): Pattern;
	write?(pattern: Pattern): WriteResult;
	/**
	 * The largest design the format's machines sew in one hooping, or null when no such limit is known
	 * (the file names no hoop and the sewing field depends on the machine). A digitising job whose design
	 * is bigger is warned, with the width that would fit.
	 */
	largestHoop: HoopLimit | null;
}
