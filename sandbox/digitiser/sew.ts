import { sewFill } from './fill';
import { sewRunning } from './running';
import { sewSatin } from './satin';
import type { Density, RegionSewing } from './sewing';

/** Shapes narrower than this everywhere are sewn as satin columns instead of tatami fill. */
export const satinMaxWidthMm = 2;
/** Shapes narrower than this are hairlines: a satin would be a blur of holes, a running stitch draws them. */
export const runningMaxWidthMm = 0.6;

/** Sews one region: underlay first, then its top stitching. */
export function sewRegion(sewing: RegionSewing, density: Density): void {
	const widthMm = sewing.map.regions[sewing.regionId].widthPx * sewing.needle.pixelMm;
	if (widthMm < runningMaxWidthMm) sewRunning(sewing);
	else if (widthMm < satinMaxWidthMm) sewSatin(sewing, density);
	else sewFill(sewing, density);
}
