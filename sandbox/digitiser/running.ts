import { traceContours, type Loop } from './contour';
import { sewLoops } from './fill';
import { floor, hypot } from './math';
import type { RegionSewing } from './sewing';

/** Stitch length for hairlines: short, so the run follows curves. */
const runStitchMm = 1.4;

/**
 * A hairline too thin for satin: its outline pulled in to the middle of the line and sewn
 * as a running stitch, which goes along the line and back over itself (a double run).
 */
export function sewRunning(sewing: RegionSewing): void {
	const { map, regionId } = sewing;
	const halfWidth = map.regions[regionId].widthPx / 2;
	const loops = traceContours(map, regionId, 0).map((loop) =>
		towardsMiddle(sewing, loop, halfWidth),
	);
	sewLoops(sewing, loops, runStitchMm);
}

/** Moves each outline point inwards, across the line, by half its width. */
function towardsMiddle(sewing: RegionSewing, loop: Loop, halfWidth: number): Loop {
	const { width, height, ids } = sewing.map;
	const inRegion = (x: number, y: number) => {
		const px = floor(x);
		const py = floor(y);
		return (
			px >= 0 && py >= 0 && px < width && py < height && ids[py * width + px] === sewing.regionId
		);
	};
	const n = loop.length;
	return loop.map(([x, y], k) => {
		const [ax, ay] = loop[(k - 2 + n) % n];
		const [bx, by] = loop[(k + 2) % n];
		const length = hypot(bx - ax, by - ay) || 1;
		let nx = -(by - ay) / length;
		let ny = (bx - ax) / length;
		if (!inRegion(x + nx * 0.6, y + ny * 0.6)) {
			nx = -nx;
			ny = -ny;
		}
		for (let step = halfWidth; step > 0; step -= 0.25) {
			if (inRegion(x + nx * step, y + ny * step)) return [x + nx * step, y + ny * step];
		}
		return [x, y];
	});
}
