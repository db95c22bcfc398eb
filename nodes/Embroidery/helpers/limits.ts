/** The service's published limits (spec: Limits, POST /jobs fields). */
export const limits = {
	conversionMaxBytes: 50 * 1024 * 1024,
	artworkMaxBytes: 20 * 1024 * 1024,
	maxSourcesPerRequest: 10,
	/** Sources read into memory for one request; keeps a combined batch bounded. */
	maxBytesPerRequest: 64 * 1024 * 1024,
	widthMm: { min: 10, max: 300 },
	colourCount: { min: 1, max: 24 },
	maximumStitchCount: { min: 1, max: 250_000 },
} as const;

/** Artwork file types digitising accepts (spec: JPG, JPEG, PNG, SVG, WebP). */
export const artworkExtensions = ['jpg', 'jpeg', 'png', 'svg', 'webp'] as const;

const artworkMimeTypes: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/jpg': 'jpg',
	'image/png': 'png',
	'image/svg+xml': 'svg',
	'image/webp': 'webp',
};

/** Thread palettes the service names: `generic` plus three thread makers. */
export const threadPalettes = [
	{ key: 'generic', label: 'Generic' },
	{ key: 'madeira', label: 'Madeira' },
	{ key: 'isacord', label: 'Isacord' },
	{ key: 'robison-anton', label: 'Robison-Anton' },
] as const;

export function formatMegabytes(bytes: number): string {
	return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** The artwork type of a file from its extension, else its MIME type; null when it is not artwork. */
export function artworkTypeOf(
	fileName: string | undefined,
	mimeType: string | undefined,
): string | null {
	const extension = fileName?.includes('.') ? fileName.split('.').pop()?.toLowerCase() : undefined;
	if (extension && (artworkExtensions as readonly string[]).includes(extension)) return extension;
	const fromMime = mimeType ? artworkMimeTypes[mimeType.toLowerCase()] : undefined;
	return fromMime ?? null;
}
