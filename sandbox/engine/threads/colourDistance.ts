/**
 * The one colour library of the engine and the digitiser: sRGB to CIE Lab (D65) and back,
 * and the CIEDE2000 difference, so thread matching picks the colour a person would call
 * closest, not the nearest RGB triple.
 */

// Bound once: the digitiser calls these per pixel colour, and inside a vm context (jest,
// sandboxed workers) every global lookup is slow.
const { abs, atan2, cbrt, cos, exp, hypot, max, min, PI, pow, round, sin, sqrt } = Math;

export type Lab = readonly [number, number, number];

const linearTable = new Float64Array(256);
for (let i = 0; i < 256; i++) linearTable[i] = linearise(i);

function linearise(channel: number): number {
	const c = min(255, max(0, channel)) / 255;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

function labCurve(t: number): number {
	return t > 216 / 24389 ? cbrt(t) : ((24389 / 27) * t + 16) / 116;
}

/** CIE Lab of sRGB channels 0-255 (fractions allowed, as cluster means are). */
export function channelsToLab(r: number, g: number, b: number): Lab {
	const lr = (r | 0) === r && r >= 0 && r <= 255 ? linearTable[r] : linearise(r);
	const lg = (g | 0) === g && g >= 0 && g <= 255 ? linearTable[g] : linearise(g);
	const lb = (b | 0) === b && b >= 0 && b <= 255 ? linearTable[b] : linearise(b);
	const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047;
	const y = 0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb;
	const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / 1.08883;
	const fx = labCurve(x);
	const fy = labCurve(y);
	const fz = labCurve(z);
	return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIE Lab of a 0xRRGGBB colour, D65 white point. */
export function rgbToLab(color: number): Lab {
	return channelsToLab((color >> 16) & 0xff, (color >> 8) & 0xff, color & 0xff);
}

/** The 0xRRGGBB colour nearest a Lab colour (channels clipped to sRGB). */
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

const degrees = 180 / PI;
const radians = PI / 180;

function hueAngle(b: number, a: number): number {
	if (a === 0 && b === 0) return 0;
	const h = atan2(b, a) * degrees;
	return h < 0 ? h + 360 : h;
}

/** CIEDE2000 colour difference (kL = kC = kH = 1); about 1 is the smallest difference people notice. */
export function deltaE2000(first: Lab, second: Lab): number {
	const [l1, a1, b1] = first;
	const [l2, a2, b2] = second;
	const meanChroma = (hypot(a1, b1) + hypot(a2, b2)) / 2;
	const chroma7 = pow(meanChroma, 7);
	const g = 0.5 * (1 - sqrt(chroma7 / (chroma7 + pow(25, 7))));
	const a1p = a1 * (1 + g);
	const a2p = a2 * (1 + g);
	const c1p = hypot(a1p, b1);
	const c2p = hypot(a2p, b2);
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
	const deltaH = 2 * sqrt(c1p * c2p) * sin((deltaHue / 2) * radians);

	const meanL = (l1 + l2) / 2;
	const meanCp = (c1p + c2p) / 2;
	let meanHue = h1p + h2p;
	if (c1p * c2p !== 0) {
		if (abs(h1p - h2p) <= 180) meanHue /= 2;
		else meanHue = h1p + h2p < 360 ? (meanHue + 360) / 2 : (meanHue - 360) / 2;
	}
	const t =
		1 -
		0.17 * cos((meanHue - 30) * radians) +
		0.24 * cos(2 * meanHue * radians) +
		0.32 * cos((3 * meanHue + 6) * radians) -
		0.2 * cos((4 * meanHue - 63) * radians);
	const lightness50 = (meanL - 50) * (meanL - 50);
	const sl = 1 + (0.015 * lightness50) / sqrt(20 + lightness50);
	const sc = 1 + 0.045 * meanCp;
	const sh = 1 + 0.015 * meanCp * t;
	const meanCp7 = pow(meanCp, 7);
	const rc = 2 * sqrt(meanCp7 / (meanCp7 + pow(25, 7)));
	const rotation = 30 * exp(-pow((meanHue - 275) / 25, 2));
	const rt = -sin(2 * rotation * radians) * rc;

	const termL = deltaL / sl;
	const termC = deltaC / sc;
	const termH = deltaH / sh;
	return sqrt(termL * termL + termC * termC + termH * termH + rt * termC * termH);
}

export function colourHex(color: number): string {
	return '#' + (color & 0xffffff).toString(16).padStart(6, '0');
}
