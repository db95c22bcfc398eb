/**
 * Digitiser benchmark: for each artwork, the width asked for against the width sewn (the
 * needle extent read back from every writable format's file), stitches, jumps, trims, colour
 * changes, density (stitches per cm² of the area the design covers), time and peak memory.
 * The artworks are the shop-order example's logo, artworks with margins made the way other
 * tools make them, and generated logos of 500x500, 1000x1000 and 4000x4000 pixels. Each runs
 * in its own process so its peak resident memory is its own.
 * Run: npm run bench:digitiser
 *
 * Against professional digitising: `npm run bench:digitiser -- --commercial DIR [OUT]` starts a
 * sandbox on a free loopback port and runs the shared instrument
 * `../shared/tools/digitise-vs-commercial.py` (python3 with Pillow, numpy and pyembroidery; an
 * extracted pyembroidery tree in $PYEMBROIDERY_DIR will do) over every DST in DIR, which prints
 * its table: coverage IoU, colour agreement, trims, thread length, short stitches and seconds per
 * design, and their medians. The sandbox is stopped afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import sharp from 'sharp';

import { digitise } from '../sandbox/digitiser';
import { listFormats, measurePattern, readPattern, writePattern } from '../sandbox/engine';

const runs = 3;

interface BenchArtwork {
	name: string;
	widthMm: number;
	colourCount: number;
	bytes: () => Promise<Buffer>;
}

function logoSvg(size: number): string {
	const s = size / 100;
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
<rect width="100" height="100" fill="#ffffff"/>
<circle cx="50" cy="42" r="34" fill="#1f4e9c"/>
<circle cx="50" cy="42" r="22" fill="#f2c230"/>
<path d="M30 42 L50 18 L70 42 L50 66 Z" fill="#d02b2b"/>
<rect x="8" y="80" width="84" height="14" rx="4" fill="#1d7a3a"/>
<text x="50" y="91" font-size="10" font-family="sans-serif" font-weight="bold" ` +
		`text-anchor="middle" fill="#ffffff">EMBROIDERY</text>
<circle cx="12" cy="12" r="${Math.max(0.5, 0.8 / s)}" fill="#000"/>
</svg>`
	);
}

const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

const artworks: BenchArtwork[] = [
	{
		name: 'shop-order logo.svg',
		widthMm: 80,
		colourCount: 3,
		bytes: async () => readFileSync(join(__dirname, '..', 'examples', 'files', 'logo.svg')),
	},
	{
		name: 'two shapes, transparent PNG',
		widthMm: 90,
		colourCount: 3,
		bytes: () =>
			png(
				`<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><circle cx="100" ` +
					`cy="100" r="60" fill="#c01020"/><rect x="180" y="50" width="80" height="100" ` +
					`fill="#203080"/></svg>`,
			),
	},
	{
		name: 'green ring on white PNG',
		widthMm: 60,
		colourCount: 3,
		bytes: () =>
			png(
				`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" ` +
					`height="400" fill="#fff"/><circle cx="200" cy="200" r="140" fill="none" ` +
					`stroke="#1a8a3a" stroke-width="40"/></svg>`,
			),
	},
	{
		name: 'SVG badge, viewBox != size',
		widthMm: 70,
		colourCount: 3,
		bytes: async () =>
			Buffer.from(
				`<svg xmlns="http://www.w3.org/2000/svg" width="500" height="300" viewBox="0 0 100 ` +
					`100"><rect x="10" y="20" width="80" height="60" rx="10" fill="#123c7a"/><circle ` +
					`cx="50" cy="50" r="20" fill="#f0c020"/></svg>`,
			),
	},
	...[500, 1000, 4000].map((size) => ({
		name: `generated logo ${size}x${size} PNG`,
		widthMm: 100,
		colourCount: 6,
		bytes: () => png(logoSvg(size)),
	})),
];

async function measure(artwork: BenchArtwork): Promise<void> {
	const bytes = await artwork.bytes();
	const times: number[] = [];
	let result: Awaited<ReturnType<typeof digitise>> | undefined;
	for (let run = 0; run < runs; run++) {
		const started = performance.now();
		result = await digitise(bytes, {
			widthMm: artwork.widthMm,
			colourCount: artwork.colourCount,
			paletteKey: 'isacord',
		});
		times.push(performance.now() - started);
	}
	times.sort((a, b) => a - b);
	const { pattern, metrics } = result!;
	const size = measurePattern(pattern);
	// The width as a reader of each machine file measures it.
	const fileWidths = listFormats()
		.filter((format) => format.writable && format.readable)
		.map(
			(format) =>
				measurePattern(readPattern(writePattern(pattern, format.format).bytes, format.format))
					.widthMm,
		);
	const peakMb = process.resourceUsage().maxRSS / 1024;
	const perColour = metrics.colourBlocks.map((block) => `${block.jumps}/${block.trims}`).join(' ');
	console.log(
		`${artwork.name.padEnd(30)} ${String(artwork.widthMm).padStart(4)} mm -> ` +
			`${Math.min(...fileWidths).toFixed(1)}-${Math.max(...fileWidths).toFixed(1)} x ${size.heightMm.toFixed(1)} mm  ` +
			(`${String(size.stitchCount).padStart(6)} st  ${String(size.jumpCount).padStart(3)} ` +
				`jumps  ${String(size.trimCount).padStart(3)} trims `) +
			`(per colour ${perColour})  ${size.colourChanges} changes  ${metrics.stitchesPerCm2.toFixed(0)} st/cm²  ` +
			`median ${times[1].toFixed(0)} ms  peak RSS ${peakMb.toFixed(0)} MB`,
	);
}

/** A loopback port nobody listens on now. */
function freePort(): Promise<number> {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => done(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

/** Runs the shared comparison against the DSTs in `dir` through a sandbox of this tree. */
async function compareWithCommercial(dir: string, out: string): Promise<void> {
	const root = join(__dirname, '..');
	// shared/ lies beside the repository (a worktree may sit one folder deeper).
	const tools = [join(root, '..'), join(root, '..', '..')].map((top) =>
		join(top, 'shared', 'tools', 'digitise-vs-commercial.py'),
	);
	const tool = tools.find((path) => existsSync(path));
	if (!tool) throw new Error(`The comparison tool is in none of ${tools.join(', ')}.`);
	if (!existsSync(dir))
		throw new Error(`No folder of commercial DSTs at ${dir}; pass --commercial DIR.`);
	const port = await freePort();
	const sandbox = spawn(
		process.execPath,
		[
			...process.execArgv,
			join(root, 'sandbox', 'cli.ts'),
			'--port',
			String(port),
			'--workers',
			'1',
		],
		{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: false },
	);
	try {
		const token = await new Promise<string>((done, fail) => {
			let text = '';
			const timer = setTimeout(
				() => fail(new Error('The sandbox did not start within 60 s.')),
				60_000,
			);
			sandbox.stdout.on('data', (chunk: Buffer) => {
				text += chunk.toString();
				const found = /Admin token:\s+([0-9a-f]+)/.exec(text);
				if (found) {
					clearTimeout(timer);
					done(found[1]);
				}
			});
			sandbox.once('exit', () =>
				fail(new Error(`The sandbox stopped before it was ready:\n${text}`)),
			);
		});
		execFileSync('python3', [tool, `http://127.0.0.1:${port}`, token, dir, out], {
			stdio: 'inherit',
		});
	} finally {
		sandbox.kill('SIGINT');
	}
}

async function main(): Promise<void> {
	const commercial = process.argv.indexOf('--commercial');
	if (commercial >= 0) {
		const dir = process.argv[commercial + 1];
		const out = process.argv[commercial + 2] ?? join(tmpdir(), 'digitise-vs-commercial');
		await compareWithCommercial(resolve(dir ?? ''), resolve(out));
		return;
	}
	const only = process.argv[2];
	if (only !== undefined) {
		await measure(artworks[Number(only)]);
		return;
	}
	console.log(
		`Digitising ${artworks.length} artworks (${runs} runs each, one process per artwork): requested -> sewn width ` +
			'(min-max over every writable format read back) x height, jumps/trims per colour block',
	);
	artworks.forEach((_, index) => {
		execFileSync(process.execPath, [...process.execArgv, __filename, String(index)], {
			stdio: 'inherit',
		});
	});
}

void main();
