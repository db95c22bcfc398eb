import { abs, atan2, cbrt, cos, exp, hypot, max, min, PI, pow, round, sin, sqrt } from './math';

/** Colour arithmetic in CIE Lab (D65), where distances follow what the eye sees. */

export type Lab = [number, number, number];

const linearTable = new Float64Array(256);
for (let i = 0; i < 256; i++) {
	const c = i / 255;
	linearTable[i] = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

function labCurve(t: number): number {
	return t > 216 / 24389 ? cbrt(t) : (24389 / 27 * t + 16) / 116;
}

/** sRGB channels 0-255 (fractions allowed) to Lab. */
export function rgbToLab(r: number, g: number, b: number): Lab {
	const lr = channelToLinear(r);
	const lg = channelToLinear(g);
	const lb = channelToLinear(b);
	const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047;
	const y = 0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb;
	const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883;
	const fx = labCurve(x);
	const fy = labCurve(y);
	const fz = labCurve(z);
	return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

function channelToLinear(value: number): number {
	if ((value | 0) === value && value >= 0 && value <= 255) return linearTable[value];
	const c = min(255, max(0, value)) / 255;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

export function hexToLab(rgb: number): Lab {
	return rgbToLab((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255);
}

export function labToRgb([l, a, bb]: Lab): number {
	const fy = (l + 16) / 116;
	const fx = fy + a / 500;
	const fz = fy - bb / 200;
	const inverse = (f: number) => (f ** 3 > 216 / 24389 ? f ** 3 : (116 * f - 16) / (24389 / 27));
	const x = inverse(fx) * 0.95047;
	const y = inverse(fy);
	const z = inverse(fz) * 1.08883;
	const lr = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
	const lg = -0.969266 * x + 1.8760108 * y + 0.041556 * z;
	const lb = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
	const encode = (c: number) => {
		const v = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(max(c, 0), 1 / 2.4) - 0.055;
		return min(255, max(0, round(v * 255)));
	};
	return (encode(lr) << 16) | (encode(lg) << 8) | encode(lb);
}

/** Plain Euclidean Lab distance (CIE76): cheap, for clustering. */
export function deltaE76(p: Lab, q: Lab): number {
	return hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** CIEDE2000 colour difference: the better judge when matching a colour to a thread. */
export function deltaE2000([l1, a1, b1]: Lab, [l2, a2, b2]: Lab): number {
	const rad = PI / 180;
	const c1 = hypot(a1, b1);
	const c2 = hypot(a2, b2);
	const cMean7 = pow((c1 + c2) / 2, 7);
	const g = 0.5 * (1 - sqrt(cMean7 / (cMean7 + pow(25, 7))));
	const a1p = a1 * (1 + g);
	const a2p = a2 * (1 + g);
	const c1p = hypot(a1p, b1);
	const c2p = hypot(a2p, b2);
	const hueAngle = (b: number, a: number) => {
		if (a === 0 && b === 0) return 0;
		const h = atan2(b, a) / rad;
		return h < 0 ? h + 360 : h;
	};
	const h1p = hueAngle(b1, a1p);
	const h2p = hueAngle(b2, a2p);
	const dL = l2 - l1;
	const dC = c2p - c1p;
	let dh = 0;
	if (c1p * c2p !== 0) {
		dh = h2p - h1p;
		if (dh > 180) dh -= 360;
		else if (dh < -180) dh += 360;
	}
	const dH = 2 * sqrt(c1p * c2p) * sin((dh * rad) / 2);
	const lMean = (l1 + l2) / 2;
	const cMean = (c1p + c2p) / 2;
	let hMean = h1p + h2p;
	if (c1p * c2p !== 0) {
		if (abs(h1p - h2p) > 180) hMean += h1p + h2p < 360 ? 360 : -360;
		hMean /= 2;
	}
	const t =
		1 -
		0.17 * cos((hMean - 30) * rad) +
		0.24 * cos(2 * hMean * rad) +
		0.32 * cos((3 * hMean + 6) * rad) -
		0.2 * cos((4 * hMean - 63) * rad);
	const dTheta = 30 * exp(-pow((hMean - 275) / 25, 2));
	const cMeanP7 = pow(cMean, 7);
	const rc = 2 * sqrt(cMeanP7 / (cMeanP7 + pow(25, 7)));
	const sl = 1 + (0.015 * pow(lMean - 50, 2)) / sqrt(20 + pow(lMean - 50, 2));
	const sc = 1 + 0.045 * cMean;
	const sh = 1 + 0.015 * cMean * t;
	const rt = -sin(2 * dTheta * rad) * rc;
	return sqrt(
		pow(dL / sl, 2) + pow(dC / sc, 2) + pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh),
	);
}

export function toHex(rgb: number): string {
	return '#' + rgb.toString(16).padStart(6, '0');
}
