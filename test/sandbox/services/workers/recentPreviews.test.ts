import { readPattern } from '../../../../sandbox/engine';
import type { Pattern } from '../../../../sandbox/engine/pattern';
import { renderPreviewPair } from '../../../../sandbox/engine/preview';
import {
	RECENT_PREVIEWS,
	previewKey,
	previewPairOf,
} from '../../../../sandbox/services/workers/recentPreviews';
import { loadFixture } from '../../engine/support/referenceDecoding';

/** A fresh copy of the Star, read again from its file: the same design in a different Pattern. */
const star = (): Pattern => readPattern(loadFixture('Star.DST').bytes);

/** The Star moved `dx` to the right: another design, though drawn the same. */
function starMovedBy(dx: number): Pattern {
	const moved = star();
	for (let i = 0; i < moved.length; i++) moved.xs[i] += dx;
	return moved;
}

describe('the engine process previews of the last designs it drew', () => {
	it('gives the bytes renderPreviewPair draws, and draws a design read again only once', async () => {
		const first = await previewPairOf(star());
		const fresh = await renderPreviewPair(star(), { format: 'png' });
		expect(first.original.bytes.equals(fresh.original.bytes)).toBe(true);
		expect(first.watermarked.bytes.equals(fresh.watermarked.bytes)).toBe(true);
		expect(first.original).toMatchObject({ mimeType: 'image/png', extension: 'png' });

		// The very same buffers: nothing was drawn for the second job.
		const again = await previewPairOf(star());
		expect(again.original.bytes).toBe(first.original.bytes);
		expect(again.watermarked.bytes).toBe(first.watermarked.bytes);
	});

	it('tells designs apart by any stitch, command or thread colour', async () => {
		const base = star();
		const shifted = star();
		shifted.xs[shifted.length - 1] += 1;
		const otherCommand = star();
		otherCommand.commands[1] = otherCommand.commands[1] === 0 ? 1 : 0;
		// A DST names no threads, so the preview takes the default palette; a named first thread changes it.
		const recoloured = star();
		expect(base.threads).toEqual([]);
		recoloured.threads = [{ color: 0x123456 }];
		const keys = [base, shifted, otherCommand, recoloured].map(previewKey);
		expect(new Set(keys).size).toBe(4);
		// Room left past the entries (the arrays grow in steps) is not part of the design.
		const roomy = star();
		roomy.xs[roomy.length] = 12345;
		expect(previewKey(roomy)).toBe(keys[0]);

		const recolouredPair = await previewPairOf(recoloured);
		const basePair = await previewPairOf(base);
		expect(recolouredPair.original.bytes.equals(basePair.original.bytes)).toBe(false);
	});

	it(`keeps the last ${RECENT_PREVIEWS} designs only, and draws an older one again`, async () => {
		const oldest = await previewPairOf(star());
		const newer = Array.from({ length: RECENT_PREVIEWS }, (_, index) => starMovedBy(index + 1));
		for (const pattern of newer) await previewPairOf(pattern);
		// The newest are still there, the Star is not: drawn again, into new buffers with the same bytes.
		const newest = newer[newer.length - 1];
		expect((await previewPairOf(newest)).original.bytes).toBe(
			(await previewPairOf(newest)).original.bytes,
		);
		const redrawn = await previewPairOf(star());
		expect(redrawn.original.bytes).not.toBe(oldest.original.bytes);
		expect(redrawn.original.bytes.equals(oldest.original.bytes)).toBe(true);
	});
});
