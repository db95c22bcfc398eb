import { sewFill } from './fill';
import { sewSatin } from './satin';
import type { Density, RegionSewing } from './sewing';

/** Shapes narrower than this everywhere are sewn as satin columns instead of tatami fill. */
export const satinMaxWidthMm = 2;

/** Sews one region: underlay first, then its top stitching. */
export function sewRegion(sewing: RegionSewing, density: Density): void {
	const region = sewing.map.regions[sewing.regionId];
	if (region.widthPx * sewing.needle.pixelMm < satinMaxWidthMm) sewSatin(sewing, density);
	else sewFill(sewing, density);
}
