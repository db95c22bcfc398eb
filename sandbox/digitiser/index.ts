/** The digitiser's public surface: artwork in, a sewable pattern out. */
export { artworkInputs, detectArtwork } from './artwork';
export type { ArtworkType } from './artwork';
export { digitise } from './digitise';
export type { DigitiseOptions, DigitiseResult } from './digitise';
export { DigitiseError } from './errors';
export type { DigitiseErrorCode } from './errors';
export type { ColourBlockMetrics, DigitiseMetrics } from './metrics';
export { threadPalettes } from './palettes';
