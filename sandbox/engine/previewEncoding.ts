import type { Sharp } from 'sharp';

// How a preview image (plain or watermarked) is encoded: its formats and one set of encoder settings each.

export type PreviewFormat = 'png' | 'webp' | 'jpeg';

export const previewFormats: Record<PreviewFormat, { mimeType: string; extension: string }> = {
	png: { mimeType: 'image/png', extension: 'png' },
	webp: { mimeType: 'image/webp', extension: 'webp' },
	jpeg: { mimeType: 'image/jpeg', extension: 'jpg' },
};

/** The preview format sharp reports for a decoded image, or null for anything else. */
export function previewFormatOf(sharpFormat: string | undefined): PreviewFormat | null {
	if (sharpFormat === 'jpg') return 'jpeg';
	return sharpFormat === 'png' || sharpFormat === 'webp' || sharpFormat === 'jpeg'
		? sharpFormat
		: null;
}

/** One set of encoder settings for the plain and the watermarked preview alike. */
export function encodePreview(image: Sharp, format: PreviewFormat): Promise<Buffer> {
	switch (format) {
		case 'png':
			return image.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
		case 'webp':
			return image.webp({ quality: 90, alphaQuality: 100, effort: 2 }).toBuffer();
		case 'jpeg':
			return image.flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer();
	}
}
