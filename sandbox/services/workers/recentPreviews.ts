import { createHash } from 'node:crypto';

import { renderPreviewPair, type Pattern } from '../../engine';

type PreviewPair = Awaited<ReturnType<typeof renderPreviewPair>>;

/**
 * The designs this engine process drew last, by their stitches and thread colours. A shop sends the same
 * artwork with order after order; drawing its preview again would give the same bytes.
 */
const recent = new Map<string, Promise<PreviewPair>>();
export const RECENT_PREVIEWS = 2;

/** What a PNG preview pair depends on: every entry's position and command, and each block's thread colour. */
export function previewKey(pattern: Pattern): string {
	const { xs, ys, commands, length } = pattern;
	const hash = createHash('sha256');
	for (const entries of [
		xs.subarray(0, length),
		ys.subarray(0, length),
		commands.subarray(0, length),
	])
		hash.update(new Uint8Array(entries.buffer, entries.byteOffset, entries.byteLength));
	hash.update(JSON.stringify(pattern.threads.map((thread) => thread.color)));
	return hash.digest('hex');
}

/** The clean and the watermarked PNG preview of a design, drawn once for the last few designs. */
export function previewPairOf(pattern: Pattern): Promise<PreviewPair> {
	const key = previewKey(pattern);
	let pair = recent.get(key);
	if (pair) {
		recent.delete(key);
	} else {
		const drawing = renderPreviewPair(pattern, { format: 'png' });
		// A failed drawing is not remembered: the next job with this design tries again.
		drawing.catch(() => {
			if (recent.get(key) === drawing) recent.delete(key);
		});
		pair = drawing;
	}
	recent.set(key, pair);
	for (const oldest of recent.keys()) {
		if (recent.size <= RECENT_PREVIEWS) break;
		recent.delete(oldest);
	}
	return pair;
}
