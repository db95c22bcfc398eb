/** The digitiser's public surface: artwork in, a sewable pattern out. */
export { artworkInputs } from './artwork';
export { detectArtwork } from './detect';
export type { ArtworkType } from './detect';
export { digitise } from './digitise';
export type { DigitiseOptions, DigitiseResult } from './digitise';
export { DigitiseError } from './errors';
export type { DigitiseErrorCode } from './errors';
export type { ColourBlockMetrics, DigitiseMetrics } from './metrics';
export { threadPalettes } from './palettes';
