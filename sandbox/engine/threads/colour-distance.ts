/**
 * Perceptual colour distance: sRGB to CIE Lab (D65) and the CIEDE2000 difference,
 * so thread matching picks the colour a person would call closest, not the nearest RGB triple.
 */

export type Lab = readonly [number, number, number];

function linearise(channel: number): number {
	const c = channel / 255;
	return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

function labCurve(t: number): number {
	return t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116;
}

/** CIE Lab of a 0xRRGGBB colour, D65 white point. */
export function rgbToLab(color: number): Lab {
	const r = linearise((color >> 16) & 0xff);
	const g = linearise((color >> 8) & 0xff);
	const b = linearise(color & 0xff);
	const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
	const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
	const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
	const fx = labCurve(x);
	const fy = labCurve(y);
	const fz = labCurve(z);
	return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const degrees = 180 / Math.PI;
const radians = Math.PI / 180;

function hueAngle(b: number, a: number): number {
	if (a === 0 && b === 0) return 0;
	const h = Math.atan2(b, a) * degrees;
	return h < 0 ? h + 360 : h;
}

/** CIEDE2000 colour difference (kL = kC = kH = 1); about 1 is the smallest difference people notice. */
export function deltaE2000(first: Lab, second: Lab): number {
	const [l1, a1, b1] = first;
	const [l2, a2, b2] = second;
	const meanChroma = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
	const chroma7 = Math.pow(meanChroma, 7);
	const g = 0.5 * (1 - Math.sqrt(chroma7 / (chroma7 + Math.pow(25, 7))));
	const a1p = a1 * (1 + g);
	const a2p = a2 * (1 + g);
	const c1p = Math.hypot(a1p, b1);
	const c2p = Math.hypot(a2p, b2);
	const h1p = hueAngle(b1, a1p);
	const h2p = hueAngle(b2, a2p);

	const deltaL = l2 - l1;
	const deltaC = c2p - c1p;
	let deltaHue = 0;
	if (c1p * c2p !== 0) {
		deltaHue = h2p - h1p;
		if (deltaHue > 180) deltaHue -= 360;
		else if (deltaHue < -180) deltaHue += 360;
	}
	const deltaH = 2 * Math.sqrt(c1p * c2p) * Math.sin((deltaHue / 2) * radians);

	const meanL = (l1 + l2) / 2;
	const meanCp = (c1p + c2p) / 2;
	let meanHue = h1p + h2p;
	if (c1p * c2p !== 0) {
		if (Math.abs(h1p - h2p) <= 180) meanHue /= 2;
		else meanHue = h1p + h2p < 360 ? (meanHue + 360) / 2 : (meanHue - 360) / 2;
	}
	const t =
		1 -
		0.17 * Math.cos((meanHue - 30) * radians) +
		0.24 * Math.cos(2 * meanHue * radians) +
		0.32 * Math.cos((3 * meanHue + 6) * radians) -
		0.2 * Math.cos((4 * meanHue - 63) * radians);
	const lightness50 = (meanL - 50) * (meanL - 50);
	const sl = 1 + (0.015 * lightness50) / Math.sqrt(20 + lightness50);
	const sc = 1 + 0.045 * meanCp;
	const sh = 1 + 0.015 * meanCp * t;
	const meanCp7 = Math.pow(meanCp, 7);
	const rc = 2 * Math.sqrt(meanCp7 / (meanCp7 + Math.pow(25, 7)));
	const rotation = 30 * Math.exp(-Math.pow((meanHue - 275) / 25, 2));
	const rt = -Math.sin(2 * rotation * radians) * rc;

	const termL = deltaL / sl;
	const termC = deltaC / sc;
	const termH = deltaH / sh;
	return Math.sqrt(termL * termL + termC * termC + termH * termH + rt * termC * termH);
}

export function colourHex(color: number): string {
	return '#' + (color & 0xffffff).toString(16).padStart(6, '0');
}
