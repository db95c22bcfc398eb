/** Which artwork a file holds, by its first bytes: cheap enough for the upload inspection thread. */

export type ArtworkType = 'png' | 'jpeg' | 'webp' | 'svg';

/** Whether `bytes` hold `signature` from `offset` on: a file type's magic number. */
export function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	return signature.every((value, index) => bytes[offset + index] === value);
}

/** The artwork's type judged by its content, never by its name. */
export function detectArtwork(bytes: Uint8Array): ArtworkType | null {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
	if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
		return 'webp';
	return looksLikeSvg(bytes) ? 'svg' : null;
}

function looksLikeSvg(bytes: Uint8Array): boolean {
	let text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 8192));
	text = text.replace(/^\uFEFF/, '');
	// Skip the prologue an SVG may carry before its root element.
	for (;;) {
		text = text.trimStart();
		const prologue =
			/^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(text);
		if (!prologue) break;
		text = text.slice(prologue[0].length);
	}
	return /^<svg[\s>]/.test(text) || /^<[A-Za-z_][\w.-]*:svg[\s>]/.test(text);
}
