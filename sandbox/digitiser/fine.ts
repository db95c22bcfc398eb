import { colourKey, type FineRaster } from './artwork';
import { background } from './regions';

/** Marks a source pixel whose slot is not read yet (slots are 0-63, or `background`). */
const unread = 254;

/**
 * A flat artwork's thread slots at its own pixels, finer than the working grid: where an edge lies
 * between two working pixels. Each exact colour takes the slot its working pixels were given (the
 * grid samples the source by nearest pixel, so it holds the same colours); a colour the grid never
 * sampled is background. A pixel's slot is read when first asked for: sewing asks near edges only.
 */
export class FineLabels {
	private readonly slots: Uint8Array;

	private constructor(
		readonly raster: FineRaster,
		private readonly slotOf: Map<number, number>,
	) {
		this.slots = new Uint8Array(raster.width * raster.height).fill(unread);
	}

	/** From the working grid's colours (`rgba`) and the thread slot each of its pixels was given. */
	static fromGrid(raster: FineRaster, rgba: Uint8Array, slots: Uint8Array): FineLabels {
		// Votes of each colour for each slot, counted a run of equal pixels at a time.
		const votes = new Map<number, Map<number, number>>();
		const vote = (key: number, slot: number, count: number) => {
			let counts = votes.get(key);
			if (!counts) votes.set(key, (counts = new Map()));
			counts.set(slot, (counts.get(slot) ?? 0) + count);
		};
		let runKey = NaN;
		let runSlot = -1;
		let run = 0;
		for (let i = 0; i < slots.length; i++) {
			const key = colourKey(rgba, 4 * i);
			if (key === runKey && slots[i] === runSlot) {
				run++;
				continue;
			}
			if (run > 0) vote(runKey, runSlot, run);
			runKey = key;
			runSlot = slots[i];
			run = 1;
		}
		if (run > 0) vote(runKey, runSlot, run);
		const slotOf = new Map<number, number>();
		for (const [key, counts] of votes) {
			let best = background;
			let most = 0;
			for (const [slot, count] of counts) {
				if (count <= most) continue;
				best = slot;
				most = count;
			}
			slotOf.set(key, best);
		}
		return new FineLabels(raster, slotOf);
	}

	/** The thread slot under a working-grid point (pixel centres at +0.5), read at the source's pixels. */
	at(x: number, y: number): number {
		const { width, height, scaleX, scaleY, rgba, stride, x0, y0 } = this.raster;
		const fx = Math.floor(x * scaleX);
		const fy = Math.floor(y * scaleY);
		if (fx < 0 || fy < 0 || fx >= width || fy >= height) return background;
		const i = fy * width + fx;
		let slot = this.slots[i];
		if (slot === unread) {
			slot = this.slotOf.get(colourKey(rgba, 4 * ((y0 + fy) * stride + x0 + fx))) ?? background;
			this.slots[i] = slot;
		}
		return slot;
	}
}
