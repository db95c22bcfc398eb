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

/** One embroidery file format: its reader and writer side by side. */
export interface FormatModule {
	info: FormatInfo;
	/** True when the bytes look like this format (magic bytes and structure, not the name). */
	detect?(bytes: Uint8Array): boolean;
	/**
	 * How much `detect` proves, which decides between formats that both accept a file: a magic
	 * signature or labelled header (3), a strict record structure (2), or mere plausibility (1).
	 * Required, so a new format says how far its check can be trusted.
	 */
	detectionStrength: DetectionStrength;
	read?(bytes: Uint8Array): Pattern;
	write?(pattern: Pattern): WriteResult;
	/**
	 * The largest design the format's machines sew in one hooping, or null when no such limit is known
	 * (the file names no hoop and the sewing field depends on the machine). A digitising job whose design
	 * is bigger is warned, with the width that would fit.
	 */
	largestHoop: HoopLimit | null;
}
