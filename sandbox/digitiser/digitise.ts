import type { Pattern, Thread } from '../engine/pattern';
import { loadArtwork, type Artwork } from './artwork';
import { findForeground } from './background';
import { removeUnsewableDetail } from './cleanup';
import { hexToLab, toHex } from './colour';
import { DigitiseError } from './errors';
import { findChart, paletteThreads } from './palettes';
import { countStitches, planStitches } from './plan';
import { quantiseColours } from './quantise';
import type { RegionMap } from './regions';
import { standardDensity, type Density } from './sewing';
import { snapToPalette } from './snap';
import { round } from './math';

export interface DigitiseOptions {
	/** Finished width in millimetres; the height follows the artwork's proportions. */
	widthMm: number;
	/** Most thread colours the design may use. */
	colourCount: number;
	/** Thread palette the colours snap to; `generic` when left out. */
	paletteKey?: string;
	/** Stitch cap: density is relaxed to meet it, or the job fails with `stitch_limit_exceeded`. */
	maxStitchCount?: number;
}

export interface DigitiseResult {
	pattern: Pattern;
	/** What was simplified on the way, in words for the user. */
	warnings: string[];
}

/** Smallest area worth a needle's visit. */
const minDetailAreaMm2 = 0.4;
/** Narrowest shape a satin stitch can still form. */
const minDetailWidthMm = 0.3;

/** Lighter densities tried, in order, when the standard one exceeds the stitch cap; the last is the sparsest still sane. */
const relaxedDensities: Density[] = [
	standardDensity,
	{ fillSpacingMm: 0.5, fillStitchMm: 4, satinSpacingMm: 0.25, underlay: true },
	{ fillSpacingMm: 0.6, fillStitchMm: 4, satinSpacingMm: 0.3, underlay: false },
	{ fillSpacingMm: 0.8, fillStitchMm: 4, satinSpacingMm: 0.4, underlay: false },
];

function validate(options: DigitiseOptions): void {
	const { widthMm, colourCount, maxStitchCount } = options;
	if (!Number.isFinite(widthMm) || widthMm < 1 || widthMm > 2000) {
		throw new RangeError(`widthMm must be a number of millimetres between 1 and 2000, not ${widthMm}.`);
	}
	if (!Number.isInteger(colourCount) || colourCount < 1 || colourCount > 64) {
		throw new RangeError(`colourCount must be a whole number from 1 to 64, not ${colourCount}.`);
	}
	if (maxStitchCount !== undefined && (!Number.isInteger(maxStitchCount) || maxStitchCount < 1)) {
		throw new RangeError(`maxStitchCount must be a positive whole number, not ${maxStitchCount}.`);
	}
}

/** Turns artwork (PNG, JPEG, WebP or SVG bytes) into a sewable pattern. */
export async function digitise(bytes: Uint8Array, options: DigitiseOptions): Promise<DigitiseResult> {
	validate(options);
	const paletteKey = options.paletteKey ?? 'generic';
	const chart = findChart(paletteKey);
	if (!chart) throw new RangeError(`Unknown thread palette "${paletteKey}".`);
	const warnings: string[] = [];

	const artwork = await loadArtwork(bytes, options.widthMm);
	const foreground = findForeground(artwork);
	if (foreground.pixelCount === 0) {
		throw new DigitiseError(
			'empty_artwork',
			`The artwork has nothing to stitch at ${options.widthMm} mm: it is blank, fully transparent or only background, or its details are too small to sew (try a larger width_mm).`,
		);
	}
	const enclosedMm2 = foreground.enclosedBackground * artwork.pixelMm * artwork.pixelMm;
	if (foreground.backgroundRgb !== null && enclosedMm2 >= 1) {
		warnings.push(
			`Areas inside the design in the background colour (${toHex(foreground.backgroundRgb)}, ${enclosedMm2.toFixed(0)} mm²) were left unstitched so the fabric shows through.`,
		);
	}
	const quantised = quantiseColours(
		artwork.rgba,
		foreground.mask,
		artwork.width,
		options.colourCount,
		foreground.backgroundRgb === null ? null : hexToLab(foreground.backgroundRgb),
	);
	if (quantised.farShare > 0.05) {
		warnings.push(
			`The artwork has more colours than ${options.colourCount} threads can show; similar colours were merged (${round(quantised.farShare * 100)}% of the design changed colour noticeably).`,
		);
	}
	const snapped = snapToPalette(quantised, paletteThreads(chart), chart.label);
	warnings.push(...snapped.warnings);

	const pixelArea = artwork.pixelMm * artwork.pixelMm;
	const cleaned = removeUnsewableDetail(snapped.labels, artwork.width, artwork.height, {
		minAreaPx: minDetailAreaMm2 / pixelArea,
		minWidthPx: minDetailWidthMm / artwork.pixelMm,
	});
	if (cleaned.droppedDetails > 0) {
		warnings.push(
			`${cleaned.droppedDetails} detail${cleaned.droppedDetails === 1 ? ' was' : 's were'} too small or thin to sew at ${options.widthMm} mm and left out (${(cleaned.droppedAreaPx * pixelArea).toFixed(1)} mm² in all).`,
		);
	}

	const plan = sewWithinCap(cleaned.map, snapped.threads.length, artwork, options.maxStitchCount, warnings);
	if (plan.blocks.length === 0) {
		throw new DigitiseError('empty_artwork', 'Nothing in the artwork is large enough to sew at this width; choose a larger width_mm.');
	}
	plan.pattern.threads = plan.blocks.map((slot): Thread => {
		const thread = snapped.threads[slot];
		return {
			color: thread.rgb,
			name: thread.name,
			...(thread.catalogNumber ? { catalogNumber: thread.catalogNumber } : {}),
			...(chart.brand ? { brand: chart.brand } : {}),
		};
	});
	return { pattern: plan.pattern, warnings };
}

/** Plans the stitches at standard density, relaxing it step by step until the stitch cap is met. */
function sewWithinCap(
	map: RegionMap,
	threadCount: number,
	artwork: Artwork,
	maxStitchCount: number | undefined,
	warnings: string[],
): ReturnType<typeof planStitches> {
	let stitchCount = 0;
	for (const density of relaxedDensities) {
		const plan = planStitches(map, threadCount, artwork.pixelMm, artwork.widthMm, artwork.heightMm, density);
		stitchCount = countStitches(plan.pattern);
		if (maxStitchCount === undefined || stitchCount <= maxStitchCount) {
			if (density !== standardDensity) {
				warnings.push(
					`Stitch density was reduced (fill rows ${density.fillSpacingMm} mm apart instead of ${standardDensity.fillSpacingMm} mm${density.underlay ? '' : ', no underlay'}) to stay within ${maxStitchCount} stitches.`,
				);
			}
			return plan;
		}
	}
	throw new DigitiseError(
		'stitch_limit_exceeded',
		`The design needs about ${stitchCount} stitches even at the lightest sane density, more than the maximum of ${maxStitchCount}; raise maximum_stitch_count or choose a smaller width.`,
	);
}
