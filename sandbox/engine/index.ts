/**
 * The stitch engine's public surface: what the sandbox's services and the digitiser import. Nothing outside
 * sandbox/engine/ imports a file inside it (test/sandbox/engine/index.surface.test.ts checks), but for one: the
 * upload inspection thread imports ./registry alone, so it starts without sharp and the preview.
 */
export { Command, Pattern, commandNames } from './pattern';
export type { Thread } from './pattern';
export type { FormatInfo, WriteResult } from './formats/format';
export { PatternTooLargeError, UnreadableSourceError, UnwritablePatternError } from './errors';
export { ceilings } from './ceilings';
export {
	detectFormat,
	identifyFormat,
	listFormats,
	nameWarning,
	readableLabels,
	readPattern,
	writePattern,
} from './registry';
export type { Identification } from './registry';
export { hoopWarning } from './hoops';
export { measurePattern, stitchBounds } from './metrics';
export type { PatternMetrics } from './metrics';
export { renderPreview, renderPreviewPair } from './preview';
export type { Preview, PreviewFormat, PreviewOptions } from './preview';
export { watermarkImage } from './watermark';
export {
	channelsToLab,
	colourHex,
	deltaE2000,
	deltaE76,
	labToRgb,
	rgbToLab,
} from './threads/colourDistance';
export type { Lab } from './threads/colourDistance';
export { ThreadChart } from './threads/threadTable';
export type { ChartThread } from './threads/threadTable';
