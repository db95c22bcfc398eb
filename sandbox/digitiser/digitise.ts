import { colourHex, rgbToLab, type Pattern, type Thread } from '../engine';
import { emptyArtwork, loadArtwork } from './artwork';
import { findForeground } from './background';
import { closeCombs } from './comb';
import { FineLabels } from './fine';
import { removeUnsewableDetail } from './cleanup';
import { joinShowingFill, splitNarrowBands, splitThinParts } from './parts';
import { branchGapMm, splitBranches } from './branches';
import { DigitiseError } from './errors';
import { designBox, fitToWidth, sewnWidthMm } from './fit';
import { underlapMm } from './fill';
import { findOpenFills } from './openfill';
import { designMetrics, type DigitiseMetrics } from './metrics';
import { findPalette } from './palettes';
import { countStitches, planStitches } from './plan';
import { narrowSatinMaxWidthMm, runningMaxWidthMm, satinMaxWidthMm } from './sew';
import { quantiseColours } from './quantise';
import { background, type RegionMap } from './regions';
import { pullCompensationMm, standardDensity, type Density } from './sewing';
import { snapToPalette } from './snap';
import { abs, round } from './math';

export interface DigitiseOptions {
	/**
	 * Finished width of the design in millimetres (its needle extent; the artwork's margins do not
	 * count); the height follows its proportions.
	 */
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
	/** The finished design as sewn: size, density, jumps and trims per colour. */
	metrics: DigitiseMetrics;
}

/** Smallest area worth a needle's visit. */
const minDetailAreaMm2 = 0.4;
/** Smallest thin part of a wider shape sewn as a stroke of its own (running stitch), mm². */
const minStrokeAreaMm2 = 1;
/** Smallest narrow band split off a wide shape to be sewn as a satin of its own, mm². */
const minBandAreaMm2 = 8;
/** Narrowest shape a satin stitch can still form. */
const minDetailWidthMm = 0.3;

/**
 * Lighter densities tried, in order, when the standard one exceeds the stitch cap; the last is the
 * sparsest still sane.
 */
const relaxedDensities: Density[] = [
	standardDensity,
	{ fillSpacingMm: 0.3, fillStitchMm: 3.5, satinSpacingMm: 0.2, underlay: true },
	{ fillSpacingMm: 0.5, fillStitchMm: 4, satinSpacingMm: 0.25, underlay: true },
	{ fillSpacingMm: 0.6, fillStitchMm: 4, satinSpacingMm: 0.3, underlay: false },
	{ fillSpacingMm: 0.8, fillStitchMm: 4, satinSpacingMm: 0.4, underlay: false },
];

function validate(options: DigitiseOptions): void {
	const { widthMm, colourCount, maxStitchCount } = options;
	if (!Number.isFinite(widthMm) || widthMm < 1 || widthMm > 2000) {
		throw new RangeError(
			`widthMm must be a number of millimetres between 1 and 2000, not ${widthMm}.`,
		);
	}
	if (!Number.isInteger(colourCount) || colourCount < 1 || colourCount > 64) {
		throw new RangeError(`colourCount must be a whole number from 1 to 64, not ${colourCount}.`);
	}
	if (maxStitchCount !== undefined && (!Number.isInteger(maxStitchCount) || maxStitchCount < 1)) {
		throw new RangeError(`maxStitchCount must be a positive whole number, not ${maxStitchCount}.`);
	}
}

/** Turns artwork (PNG, JPEG, WebP or SVG bytes) into a sewable pattern. */
export async function digitise(
	bytes: Uint8Array,
	options: DigitiseOptions,
): Promise<DigitiseResult> {
	validate(options);
	const paletteKey = options.paletteKey ?? 'generic';
	const palette = findPalette(paletteKey);
	if (!palette) throw new RangeError(`Unknown thread palette "${paletteKey}".`);
	const { chart } = palette;
	const warnings: string[] = [];

	const artwork = await loadArtwork(bytes, options.widthMm);
	const foreground = findForeground(artwork);
	if (foreground.pixelCount === 0) throw emptyArtwork(options.widthMm);
	if (artwork.frameLeftOut) {
		warnings.push(
			'A thin frame along the edge of the artwork was left out: it borders the picture, not ' +
				'the design, so it does not count in width_mm.',
		);
	}
	const enclosedMm2 = foreground.enclosedBackground * artwork.pixelMm * artwork.pixelMm;
	if (foreground.backgroundRgb !== null && enclosedMm2 >= 1) {
		warnings.push(
			`Areas inside the design in the background colour ` +
				`(${colourHex(foreground.backgroundRgb)}, ${enclosedMm2.toFixed(0)} mm²) were left ` +
				`unstitched so the fabric shows through.`,
		);
	}
	const quantised = quantiseColours(
		artwork.rgba,
		foreground.mask,
		artwork.width,
		options.colourCount,
		foreground.backgroundRgb === null ? null : rgbToLab(foreground.backgroundRgb),
		artwork.flat ? minDetailAreaMm2 / (artwork.pixelMm * artwork.pixelMm) : Infinity,
	);
	if (quantised.farShare > 0.05) {
		warnings.push(
			`The artwork has more colours than ${options.colourCount} threads can show; similar ` +
				`colours were merged (${round(quantised.farShare * 100)}% of the design changed colour noticeably).`,
		);
	}
	const snapped = snapToPalette(quantised, chart, palette.label);
	warnings.push(...snapped.warnings);
	// Before cleanup rewrites the slots in place: each colour votes with the slots its pixels were snapped to.
	const fine = artwork.fine && FineLabels.fromGrid(artwork.fine, artwork.rgba, snapped.labels);

	const pixelArea = artwork.pixelMm * artwork.pixelMm;
	// Drawn light satins wider than the grid closes on its own become bands (see `closeCombs`).
	closeCombs(snapped.labels, artwork.width, artwork.height, artwork.pixelMm, satinMaxWidthMm);
	const cleaned = removeUnsewableDetail(snapped.labels, artwork.width, artwork.height, {
		minAreaPx: minDetailAreaMm2 / pixelArea,
		minWidthPx: minDetailWidthMm / artwork.pixelMm,
	});
	if (cleaned.droppedDetails > 0) {
		warnings.push(
			`${cleaned.droppedDetails} detail${cleaned.droppedDetails === 1 ? ' was' : 's were'} ` +
				`too small or thin to sew at ${options.widthMm} mm and left out ` +
				`(${(cleaned.droppedAreaPx * pixelArea).toFixed(1)} mm² in all).`,
		);
	}

	splitThinParts(cleaned.map, runningMaxWidthMm / artwork.pixelMm, minStrokeAreaMm2 / pixelArea);
	splitNarrowBands(
		cleaned.map,
		narrowSatinMaxWidthMm / artwork.pixelMm,
		minBandAreaMm2 / pixelArea,
	);
	joinShowingFill(cleaned.map, runningMaxWidthMm / artwork.pixelMm, underlapMm / artwork.pixelMm);
	splitBranches(
		cleaned.map,
		narrowSatinMaxWidthMm / artwork.pixelMm,
		satinMaxWidthMm / artwork.pixelMm,
		branchGapMm / artwork.pixelMm,
	);
	if (fine) cleaned.map.fine = fine;
	cleaned.map.pixelAspect = artwork.pixelAspect;
	findOpenFills(cleaned.map, artwork.pixelMm);
	const plan = sewWithinCap(cleaned.map, snapped.threads.length, options, warnings);
	if (plan.blocks.length === 0) {
		throw new DigitiseError(
			'empty_artwork',
			'Nothing in the artwork is large enough to sew at this width; choose a larger width_mm.',
		);
	}
	plan.pattern.threads = plan.blocks.map((slot): Thread => {
		const thread = snapped.threads[slot];
		return {
			color: thread.color,
			name: thread.name,
			...(thread.catalogNumber ? { catalogNumber: thread.catalogNumber } : {}),
			...(chart.brand ? { brand: chart.brand } : {}),
		};
	});
	return {
		pattern: plan.pattern,
		warnings,
		metrics: designMetrics(plan.pattern, options.widthMm, plan.coveredAreaMm2),
	};
}

/** Plans the stitches at standard density, relaxing it step by step until the stitch cap is met. */
function sewWithinCap(
	map: RegionMap,
	threadCount: number,
	options: DigitiseOptions,
	warnings: string[],
): SewnDesign {
	const { maxStitchCount, widthMm } = options;
	let stitchCount = 0;
	for (const density of relaxedDensities) {
		const plan = sewAtWidth(map, threadCount, widthMm, density);
		stitchCount = countStitches(plan.pattern);
		if (maxStitchCount === undefined || stitchCount <= maxStitchCount) {
			if (density !== standardDensity) {
				warnings.push(
					`Stitch density was reduced (fill rows ${density.fillSpacingMm} mm apart instead ` +
						`of ${standardDensity.fillSpacingMm} mm${density.underlay ? '' : ', no underlay'}) ` +
						`to stay within ${maxStitchCount} stitches.`,
				);
			}
			return plan;
		}
	}
	throw new DigitiseError(
		'stitch_limit_exceeded',
		`At ${widthMm} mm wide the design needs about ${stitchCount} stitches even at the ` +
			`lightest sane density, more than the maximum of ${maxStitchCount}; raise ` +
			`maximum_stitch_count or choose a smaller width_mm.`,
	);
}

interface SewnDesign {
	pattern: Pattern;
	blocks: number[];
	/** Area of fabric the design covers, mm². */
	coveredAreaMm2: number;
}

/**
 * How far the needle extent may miss the width before the plan is redone at a corrected scale
 * rather than stretched.
 */
const replanTolerance = 0.02;

/**
 * Sews the design so its needle positions (pull compensation and satin edges included) span
 * exactly `widthMm`: planned at the scale that should give that width, re-planned once if the
 * sewn extent misses by more than a hair, then fitted exactly.
 */
function sewAtWidth(
	map: RegionMap,
	threadCount: number,
	widthMm: number,
	density: Density,
): SewnDesign {
	const box = designBox(map);
	if (!box)
		throw new DigitiseError(
			'empty_artwork',
			'Nothing in the artwork is large enough to sew at this width; choose a larger width_mm.',
		);
	const contentPx = box.maxX + 1 - box.minX;
	let pixelMm = (widthMm - 2 * pullCompensationMm) / contentPx;
	let plan = planStitches(map, threadCount, pixelMm, density);
	const sewn = sewnWidthMm(plan.pattern);
	if (sewn > 0 && abs(sewn - widthMm) > replanTolerance * widthMm) {
		// Edges, compensation and hairline middles are fixed millimetres, so the correction is an offset.
		pixelMm += (widthMm - sewn) / contentPx;
		plan = planStitches(map, threadCount, pixelMm, density);
	}
	// The middle of the design's box, where the needle's frame (centred on the raster) puts it.
	const unit = pixelMm * 10;
	const aspect = map.pixelAspect ?? 1;
	const middle: [number, number] = [
		((box.minX + box.maxX + 1 - map.width) / 2) * unit,
		((box.minY + box.maxY + 1 - map.height) / 2) * unit * aspect,
	];
	const scale = fitToWidth(plan.pattern, plan.exact, widthMm, middle);
	let designPixels = 0;
	for (const region of map.regions) if (region.label !== background) designPixels += region.area;
	const effectiveMm = pixelMm * scale;
	return { ...plan, coveredAreaMm2: designPixels * effectiveMm * effectiveMm * aspect };
}
