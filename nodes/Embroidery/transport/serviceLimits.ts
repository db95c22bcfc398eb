/** The service's published limits (spec: Limits, POST /jobs fields): checked before anything is sent. */
export const limits = {
	/** A conversion source over this is refused by the service; checked here so no upload is wasted. */
	conversionMaxBytes: 50 * 1024 * 1024,
	/** The same for artwork sent to digitising. */
	artworkMaxBytes: 20 * 1024 * 1024,
	/** Files the service takes in one POST /jobs. */
	maxSourcesPerRequest: 10,
	/** Sources read into memory for one request; keeps a combined batch bounded. */
	maxBytesPerRequest: 64 * 1024 * 1024,
	/** The ranges of digitising's fields, so a wrong number is named before the upload. */
	widthMm: { min: 10, max: 300 },
	colourCount: { min: 1, max: 24 },
	maximumStitchCount: { min: 1, max: 250_000 },
} as const;

/** A size as the limits' errors show it: megabytes with one decimal. */
export function formatMegabytes(bytes: number): string {
	return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
