import { sewFill } from './fill';
import { sewRunning } from './running';
import { satinMaxWidthMm, sewColumnSatin, sewSatin } from './satin';
import type { Region } from './regions';
import type { Density, RegionSewing } from './sewing';

export { satinMaxWidthMm } from './satin';
/** Shapes narrower than this everywhere are sewn as a straight-across satin when they are not one column. */
export const narrowSatinMaxWidthMm = 2;
/** Shapes narrower than this are strokes: a satin would be a blur of holes, a running stitch draws them. */
export const runningMaxWidthMm = 0.8;

/**
 * Sews one region, underlay first, then its top stitching: a running stitch for a stroke, a
 * satin column that turns with the shape when it is one column up to `satinMaxWidthMm` wide,
 * tatami fill for the rest.
 */
export function sewRegion(sewing: RegionSewing, density: Density): void {
	const region = sewing.map.regions[sewing.regionId];
	const widthMm = region.widthPx * sewing.needle.pixelMm;
	if (sewnAsRunning(region, sewing.needle.pixelMm)) sewRunning(sewing);
	else if (widthMm <= satinMaxWidthMm && sewColumnSatin(sewing, density)) return;
	else if (widthMm < narrowSatinMaxWidthMm) sewSatin(sewing, density);
	else sewFill(sewing, density);
}

/** Whether `sewRegion` sews a region as a running stitch at this scale (working pixels of `pixelMm`). */
export function sewnAsRunning(region: Region, pixelMm: number): boolean {
	return region.stroke === true || region.widthPx * pixelMm < runningMaxWidthMm;
}
