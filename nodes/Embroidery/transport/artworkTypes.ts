// Which files digitising accepts as artwork: by extension first, else by MIME type.

/** Artwork file types digitising accepts (spec: JPG, JPEG, PNG, SVG, WebP). */
export const artworkExtensions = ['jpg', 'jpeg', 'png', 'svg', 'webp'] as const;

/** The artwork types as the editor and the node's advice name them: JPEG is JPG. */
export const shownArtworkTypes = artworkExtensions
	.filter((extension) => extension !== 'jpeg')
	.map((extension) => (extension === 'webp' ? 'WebP' : extension.toUpperCase()));

/** `JPG, PNG, SVG or WebP`. */
export function artworkTypesOr(): string {
	return `${shownArtworkTypes.slice(0, -1).join(', ')} or ${shownArtworkTypes[shownArtworkTypes.length - 1]}`;
}

const artworkMimeTypes: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/jpg': 'jpg',
	'image/png': 'png',
	'image/svg+xml': 'svg',
	'image/webp': 'webp',
};

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
