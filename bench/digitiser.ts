/**
 * Digitiser benchmark: time and peak memory to digitise generated logo artworks of
 * 500x500, 1000x1000 and 4000x4000 pixels at 100 mm. Each size runs in its own
 * process so its peak resident memory is its own.
 * Run: npm run bench:digitiser
 */
import { execFileSync } from 'node:child_process';

import sharp from 'sharp';

import { digitise } from '../sandbox/digitiser';
import { Command } from '../sandbox/engine/pattern';

const sizes = [500, 1000, 4000];
const runs = 3;

function logoSvg(size: number): string {
	const s = size / 100;
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
<rect width="100" height="100" fill="#ffffff"/>
<circle cx="50" cy="42" r="34" fill="#1f4e9c"/>
<circle cx="50" cy="42" r="22" fill="#f2c230"/>
<path d="M30 42 L50 18 L70 42 L50 66 Z" fill="#d02b2b"/>
<rect x="8" y="80" width="84" height="14" rx="4" fill="#1d7a3a"/>
<text x="50" y="91" font-size="10" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#ffffff">EMBROIDERY</text>
<circle cx="12" cy="12" r="${Math.max(0.5, 0.8 / s)}" fill="#000"/>
</svg>`;
}

async function measure(size: number): Promise<void> {
	const png = await sharp(Buffer.from(logoSvg(size))).png().toBuffer();
	const times: number[] = [];
	let stitches = 0;
	let colours = 0;
	for (let run = 0; run < runs; run++) {
		const started = performance.now();
		const { pattern } = await digitise(png, { widthMm: 100, colourCount: 6, paletteKey: 'isacord' });
		times.push(performance.now() - started);
		stitches = 0;
		for (let i = 0; i < pattern.length; i++) if (pattern.commands[i] === Command.Stitch) stitches++;
		colours = pattern.threads.length;
	}
	times.sort((a, b) => a - b);
	const peakMb = process.resourceUsage().maxRSS / 1024;
	console.log(
		`${`${size}x${size}`.padEnd(10)} file ${(png.length / 1024).toFixed(0).padStart(5)} KB  ` +
			`median ${times[1].toFixed(0).padStart(5)} ms  fastest ${times[0].toFixed(0).padStart(5)} ms  ` +
			`peak RSS ${peakMb.toFixed(0).padStart(4)} MB  ${stitches} stitches, ${colours} colours`,
	);
}

async function main(): Promise<void> {
	const only = process.argv[2];
	if (only) {
		await measure(Number(only));
		return;
	}
	console.log(`Digitising generated logos at 100 mm wide (${runs} runs each, one process per size)`);
	for (const size of sizes) {
		execFileSync(process.execPath, [...process.execArgv, __filename, String(size)], { stdio: 'inherit' });
	}
}

void main();
