/**
 * A small software rasteriser that draws stitches as lit, anti-aliased thread strokes.
 * Pixels are kept premultiplied in floats so overlapping strokes blend without banding.
 */

// Local bindings: global lookups such as Math are slow inside vm contexts (jest), and these loops are hot.
const { abs, ceil, floor, max, min, round, sqrt } = Math;

/** Light from the upper left, slightly in front of the fabric, as in a product photo. */
const LIGHT = normalise3(-0.45, -0.6, 0.66);
/** Half-way vector between the light and a viewer looking straight at the fabric. */
const HALF = normalise3(LIGHT[0], LIGHT[1], LIGHT[2] + 1);
const AMBIENT = 0.62;
const DIFFUSE = 0.42;
const SPECULAR = 0.22;
/** How much darker the thread is where it dives into the fabric at each needle hole. */
const NEEDLE_HOLE_SHADE = 0.28;

function normalise3(x: number, y: number, z: number): [number, number, number] {
	const length = Math.hypot(x, y, z);
	return [x / length, y / length, z / length];
}

/** An sRGB colour with channels 0..255. */
export interface Rgb {
	r: number;
	g: number;
	b: number;
}

export class ThreadRaster {
	/** Premultiplied RGBA, 0..1 per channel. */
	private readonly pixels: Float32Array;

	constructor(
		readonly width: number,
		readonly height: number,
	) {
		this.pixels = new Float32Array(width * height * 4);
	}

	/**
	 * Draws one stitch from (x0, y0) to (x1, y1), pixel units, as a thread of the given
	 * radius: rounded ends, lit like a cylinder, darker at both needle holes.
	 */
	drawStitch(x0: number, y0: number, x1: number, y1: number, radius: number, colour: Rgb): void {
		const dx = x1 - x0;
		const dy = y1 - y0;
		const length = Math.hypot(dx, dy);
		if (length < 1e-3) return;
		const ux = dx / length;
		const uy = dy / length;
		// Unit normal across the thread; the cylinder's surface normal tilts along it.
		const nx = -uy;
		const ny = ux;
		const reach = radius + 0.5;
		const lightAcross = nx * LIGHT[0] + ny * LIGHT[1];
		const halfAcross = nx * HALF[0] + ny * HALF[1];
		const holeReach = min(radius * 1.5, length / 2);
		const holeSlope = NEEDLE_HOLE_SHADE / holeReach;
		const holeFloor = 1 - NEEDLE_HOLE_SHADE;
		const lightZ = LIGHT[2];
		const halfZ = HALF[2];
		const red = colour.r / 255;
		const green = colour.g / 255;
		const blue = colour.b / 255;

		const top = max(0, floor(min(y0, y1) - reach));
		const bottom = min(this.height - 1, ceil(max(y0, y1) + reach));
		const boxLeft = max(0, floor(min(x0, x1) - reach));
		const boxRight = min(this.width - 1, ceil(max(x0, x1) + reach));
		if (top > bottom || boxLeft > boxRight) return;

		const pixels = this.pixels;
		const width = this.width;
		for (let py = top; py <= bottom; py++) {
			const cy = py + 0.5 - y0;
			let left = boxLeft;
			let right = boxRight;
			// Only the pixels within reach of the stroke's centre line need visiting.
			if (abs(nx) > 1e-9) {
				const a = (-reach - cy * ny) / nx + x0 - 0.5;
				const b = (reach - cy * ny) / nx + x0 - 0.5;
				left = max(left, floor(min(a, b)));
				right = min(right, ceil(max(a, b)));
			} else if (abs(cy * ny) > reach) {
				continue;
			}
			let index = (py * width + left) * 4;
			// Distances across and along the stroke change by a constant step per pixel.
			let cx = left + 0.5 - x0;
			let across = cx * nx + cy * ny;
			let along = cx * ux + cy * uy;
			for (let px = left; px <= right; px++, index += 4, cx++, across += nx, along += ux) {
				let distance: number;
				if (along < 0) distance = sqrt(cx * cx + cy * cy);
				else if (along > length) distance = sqrt((cx - dx) * (cx - dx) + (cy - dy) * (cy - dy));
				else distance = across < 0 ? -across : across;
				let coverage = radius + 0.5 - distance;
				if (coverage <= 0) continue;
				if (coverage > 1) coverage = 1;

				let t = across / radius;
				if (t > 1) t = 1;
				else if (t < -1) t = -1;
				const z = sqrt(1 - t * t);
				const diffuse = t * lightAcross + z * lightZ;
				const facing = t * halfAcross + z * halfZ;
				let specular = facing > 0 ? facing * facing : 0;
				specular *= specular;
				specular *= specular;
				specular *= SPECULAR;
				const fromHole = along < length - along ? along : length - along;
				const hole =
					fromHole >= holeReach
						? 1
						: fromHole <= 0
							? holeFloor
							: 1 - holeSlope * (holeReach - fromHole);
				const shade = (AMBIENT + DIFFUSE * (diffuse > 0 ? diffuse : 0)) * hole;
				const keep = 1 - coverage;
				const r = red * shade + specular;
				const g = green * shade + specular;
				const b = blue * shade + specular;
				pixels[index] = pixels[index] * keep + (r < 1 ? r : 1) * coverage;
				pixels[index + 1] = pixels[index + 1] * keep + (g < 1 ? g : 1) * coverage;
				pixels[index + 2] = pixels[index + 2] * keep + (b < 1 ? b : 1) * coverage;
				pixels[index + 3] = pixels[index + 3] * keep + coverage;
			}
		}
	}

	/**
	 * 8-bit RGBA for encoding: straight alpha over a transparent background, or fully
	 * opaque over `background` (for formats without alpha).
	 */
	toRgba(background?: Rgb): Buffer {
		const pixels = this.pixels;
		const rgba = Buffer.allocUnsafe(pixels.length);
		for (let i = 0; i < pixels.length; i += 4) {
			const alpha = pixels[i + 3];
			if (background) {
				const keep = 1 - alpha;
				rgba[i] = round((pixels[i] + (background.r / 255) * keep) * 255);
				rgba[i + 1] = round((pixels[i + 1] + (background.g / 255) * keep) * 255);
				rgba[i + 2] = round((pixels[i + 2] + (background.b / 255) * keep) * 255);
				rgba[i + 3] = 255;
			} else if (alpha <= 0) {
				rgba[i] = rgba[i + 1] = rgba[i + 2] = rgba[i + 3] = 0;
			} else {
				const scale = 255 / alpha;
				rgba[i] = min(255, round(pixels[i] * scale));
				rgba[i + 1] = min(255, round(pixels[i + 1] * scale));
				rgba[i + 2] = min(255, round(pixels[i + 2] * scale));
				rgba[i + 3] = min(255, round(alpha * 255));
			}
		}
		return rgba;
	}
}
