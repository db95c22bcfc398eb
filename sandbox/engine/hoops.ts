import { formatModules } from './formats';
import { findModule } from './registry';
import { fitsHoop, type HoopLimit } from './formats/format';

function fits(widthMm: number, heightMm: number, hoop: HoopLimit): boolean {
	return fitsHoop(widthMm, heightMm, hoop.widthMm, hoop.heightMm);
}

/** The widest a design of these proportions can be and still fit the hoop, in whole millimetres. */
function widestFitting(widthMm: number, heightMm: number, hoop: HoopLimit): number {
	const ratio = heightMm / widthMm;
	const upright = Math.min(hoop.widthMm, hoop.heightMm / ratio);
	const turned = Math.min(hoop.heightMm, hoop.widthMm / ratio);
	return Math.floor(Math.max(upright, turned));
}

/**
 * The longest side, in mm, of a design any embroidery machine could sew in one hooping: the largest frames
 * of industrial multi-head machines (DST, EXP, U01 and the like, whose files name no hoop) stay well below.
 */
export const longestSewableMm = 1500;

/** For a format whose files name no hoop: a warning when no embroidery machine's field takes the design. */
function beyondEveryMachine(widthMm: number, heightMm: number): string | null {
	if (Math.max(widthMm, heightMm) <= longestSewableMm) return null;
	return (
		`The design is ${widthMm} x ${heightMm} mm, larger than any embroidery machine sews in one hooping ` +
		`(even industrial frames stay under ${longestSewableMm} mm): check the source file, or split the design.`
	);
}

/**
 * What to tell the user when a design of this finished size is larger than the largest hoop the
 * output format's machines take: the limit, for a design sewn to an ordered width (digitising) the
 * widest width_mm that fits its proportions (when it is not below `smallestWidthMm`, the least a job
 * may ask for), and the formats whose machines take it as it is. Null when it fits or the format
 * knows no limit.
 */
export function hoopWarning(
	format: string,
	widthMm: number,
	heightMm: number,
	resizable: { smallestWidthMm: number } | null,
): string | null {
	const hoop = findModule(format)?.largestHoop;
	if (!hoop) return beyondEveryMachine(widthMm, heightMm);
	if (widthMm <= 0 || fits(widthMm, heightMm, hoop)) return null;
	const roomier = formatModules
		.filter(
			(module) => module.write && module.largestHoop && fits(widthMm, heightMm, module.largestHoop),
		)
		.map((module) => module.info.format.toUpperCase());
	let advice = 'Only machines with a bigger hoop can sew it: choose ';
	if (resizable) {
		const widest = widestFitting(widthMm, heightMm, hoop);
		advice =
			widest >= resizable.smallestWidthMm
				? `Choose a width_mm of at most ${widest} mm for this design's proportions, or `
				: `Even a width_mm of ${resizable.smallestWidthMm} mm is too large for this design's ` +
					`proportions in that hoop; crop the artwork or choose `;
	}
	return (
		`The design is ${widthMm} x ${heightMm} mm, larger than ${hoop.description}. ` +
		advice +
		(`a format whose machines have bigger hoop` +
			`s${roomier.length ? ` (${roomier.join(', ')} ${roomier.length === 1 ? 'takes' : 'take'} it as it is)` : ''}.`)
	);
}
