import { traceContours } from './contour';
import { sewLoops } from './fill';
import type { RegionSewing } from './sewing';

/** Stitch length for hairlines: short, so the run follows curves. */
const runStitchMm = 1.5;

/**
 * A hairline too thin for satin: a running stitch around its outline, which for a line
 * this narrow means once along it and back, like a hand-sewn double run.
 */
export function sewRunning(sewing: RegionSewing): void {
	sewLoops(sewing, traceContours(sewing.map, sewing.regionId, 0), runStitchMm);
}
