/** The stitch engine's public surface: what the sandbox's services import. */
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
export { measurePattern } from './metrics';
export type { PatternMetrics } from './metrics';
export { renderPreview } from './preview';
export type { Preview, PreviewFormat, PreviewOptions } from './preview';
export { watermarkImage } from './watermark';
