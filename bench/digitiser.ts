/**
 * Digitiser benchmark: for each artwork, the width asked for against the width sewn (the
 * needle extent read back from every writable format's file), stitches, jumps, trims, colour
 * changes, density (stitches per cm² of the area the design covers), time and peak memory.
 * The artworks are the shop-order example's logo, artworks with margins made the way other
 * tools make them, and generated logos of 500x500, 1000x1000 and 4000x4000 pixels. Each runs
 * in its own process so its peak resident memory is its own.
 * Run: npm run bench:digitiser
 *
 * Against professional digitising: `npm run bench:digitiser -- --commercial DIR [OUT]
 * [--heldout DIR2]` starts a sandbox on a free loopback port and runs the shared instrument
 * `../shared/tools/digitise-vs-commercial.py` (python3 with Pillow, numpy and pyembroidery; an
 * extracted pyembroidery tree in $PYEMBROIDERY_DIR will do) over every DST in DIR, then in DIR2
 * (designs kept aside, never tuned on), which prints each set's table: coverage IoU, colour
 * agreement, trims, thread length, short stitches and seconds per design, and their medians.
 * Then, per set, what a copy scores whose every needle is within 0.05 mm of the professional's
 * (`support/ceiling.py`: half the 0.1 mm grid a DST records, as far as rounding alone moves a needle).
 * Last, one line per set and target of issue 38, met or not. The sandbox is stopped afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

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
	{
		// Hundreds of long slanted lines, each with a box most of the map's: sewn line by line, work
		// that scanned each line's box grew with the square of the design (see docs/development.md).
		name: 'diagonal stripes 2000x2000 PNG',
		widthMm: 300,
		colourCount: 2,
		bytes: () => png(stripesSvg(2000, 9)),
	},
];

/** Red lines 4 px wide at 45 degrees, `gap` px apart, across a white square `size` px a side. */
function stripesSvg(size: number, gap: number): string {
	const lines: string[] = [];
	for (let k = -size; k < 2 * size; k += gap) {
		lines.push(
			`<line x1="${k}" y1="0" x2="${k + size}" y2="${size}" stroke="#c02020" stroke-width="4"/>`,
		);
	}
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">` +
		`<rect width="${size}" height="${size}" fill="#fff"/>${lines.join('')}</svg>`
	);
}

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

/** One design's figures in the comparison tool's results.json (the fields read here). */
interface ComparedDesign {
	design: string;
	error?: string;
	iou?: number;
	colour_agreement?: number | null;
	thread_length_ratio?: number;
	server_seconds?: number;
	orig?: { trims: number; short_share: number };
	dig?: { trims: number; short_share: number };
}

function median(values: number[]): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * What the professional's own stitches score once each needle is moved within the file's grid
 * (`support/ceiling.py`).
 */
interface Ceiling {
	rows: Array<{
		design: string;
		iou: number;
		colour_agreement: number;
		/** The same copy with every run sewn the other way, and out and back. */
		iou_reversed: number;
		iou_out_and_back: number;
	}>;
}

/**
 * The "done when" targets of issue 38, one line each, for one set of designs: medians of IoU,
 * trims against the professional's (per design, a design the professional sewed with no trim
 * counts as one), thread length and short stitches; colour agreement and seconds per job on
 * every design; failed jobs. IoU and colour say what a copy within 0.05 mm scores (`ceiling`).
 */
function targetLines(set: string, rows: ComparedDesign[], ceiling: Ceiling): string[] {
	const done = rows.filter((row) => !row.error && row.dig && row.orig);
	const failed = rows.length - done.length;
	const iou = median(rows.map((row) => (row.error ? 0 : (row.iou ?? 0))));
	const trims = median(done.map((row) => row.dig!.trims / Math.max(1, row.orig!.trims)));
	const thread = median(done.map((row) => row.thread_length_ratio ?? 0));
	const short = median(done.map((row) => row.dig!.short_share));
	const colours = done.map((row) => ({ design: row.design, value: row.colour_agreement ?? 0 }));
	const worstColour = colours.reduce((a, b) => (b.value < a.value ? b : a), {
		design: '-',
		value: 1,
	});
	const slowest = done.reduce(
		(a, b) => ((b.server_seconds ?? 0) > (a.server_seconds ?? 0) ? b : a),
		done[0] ?? { design: '-', server_seconds: 0 },
	);
	const line = (met: boolean, text: string) => `${set}: ${met ? 'MET    ' : 'NOT MET'} ${text}`;
	const close = ceiling.rows.find((row) => row.design === worstColour.design)?.colour_agreement;
	const closeColour = close === undefined ? '' : `; a copy within 0.05 mm ${close.toFixed(3)}`;
	return [
		line(
			iou >= 0.86,
			`median coverage IoU ${iou.toFixed(3)} (target >= 0.86; a copy within 0.05 mm ` +
				`${median(ceiling.rows.map((row) => row.iou)).toFixed(3)}, the same copy sewn each run ` +
				`the other way ${median(ceiling.rows.map((row) => row.iou_reversed)).toFixed(3)}, ` +
				`out and back ${median(ceiling.rows.map((row) => row.iou_out_and_back)).toFixed(3)})`,
		),
		line(trims <= 3, `median trims x${trims.toFixed(2)} the professional's (target <= 3)`),
		line(thread >= 0.85, `median thread length x${thread.toFixed(2)} (target >= 0.85)`),
		line(
			worstColour.value >= 0.9,
			`colour agreement worst ${worstColour.value.toFixed(3)} (${worstColour.design}; target >= 0.90 on every ` +
				`design${closeColour})`,
		),
		line(short <= 0.12, `median stitches under 1 mm ${(short * 100).toFixed(0)}% (target <= 12%)`),
		line(failed === 0, `${failed} of ${rows.length} jobs failed (target none)`),
		line(
			(slowest.server_seconds ?? 0) <= 3,
			`slowest job ${(slowest.server_seconds ?? 0).toFixed(1)} s on the server (${slowest.design}; target <= 3 s)`,
		),
	];
}

/** Runs the shared comparison against the DSTs in each set's folder through one sandbox of this tree. */
async function compareWithCommercial(
	sets: Array<{ name: string; dir: string; out: string }>,
): Promise<void> {
	const root = join(__dirname, '..');
	// shared/ lies beside the repository (a worktree may sit one folder deeper).
	const tools = [join(root, '..'), join(root, '..', '..')].map((top) =>
		join(top, 'shared', 'tools', 'digitise-vs-commercial.py'),
	);
	const tool = tools.find((path) => existsSync(path));
	if (!tool) throw new Error(`The comparison tool is in none of ${tools.join(', ')}.`);
	for (const { dir } of sets) {
		if (!existsSync(dir))
			throw new Error(`No folder of commercial DSTs at ${dir}; pass --commercial DIR.`);
	}
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
			// Jobs are timed once the engine process has warmed up, as on a service that has been running.
			sandbox.stdout.on('data', (chunk: Buffer) => {
				text += chunk.toString();
				const found = /Admin token:\s+([0-9a-f]+)/.exec(text);
				if (found && /Engine processes ready/.test(text)) {
					clearTimeout(timer);
					done(found[1]);
				}
			});
			sandbox.once('exit', () =>
				fail(new Error(`The sandbox stopped before it was ready:\n${text}`)),
			);
		});
		const lines: string[] = [];
		for (const { name, dir, out } of sets) {
			console.log(`\n## ${name}: ${dir}`);
			mkdirSync(out, { recursive: true });
			try {
				execFileSync('python3', [tool, `http://127.0.0.1:${port}`, token, dir, out], {
					stdio: 'inherit',
				});
			} catch {
				// The tool exits non-zero when a job failed; its results still say which.
			}
			const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
				rows: ComparedDesign[];
			};
			const ceilingJson = join(out, 'ceiling.json');
			execFileSync('python3', [join(__dirname, 'support', 'ceiling.py'), tool, dir, ceilingJson], {
				stdio: 'inherit',
			});
			const ceiling = JSON.parse(readFileSync(ceilingJson, 'utf8')) as Ceiling;
			lines.push(...targetLines(name, results.rows, ceiling));
		}
		console.log('\nTargets of issue 38:');
		for (const line of lines) console.log(line);
	} finally {
		sandbox.kill('SIGINT');
	}
}

async function main(): Promise<void> {
	const commercial = process.argv.indexOf('--commercial');
	if (commercial >= 0) {
		const dir = process.argv[commercial + 1];
		const next = process.argv[commercial + 2];
		const out = next && !next.startsWith('--') ? next : join(tmpdir(), 'digitise-vs-commercial');
		const heldout = process.argv.indexOf('--heldout');
		const sets = [
			{ name: basename(resolve(dir ?? '')), dir: resolve(dir ?? ''), out: resolve(out) },
		];
		if (heldout >= 0) {
			const held = resolve(process.argv[heldout + 1] ?? '');
			sets.push({
				name: `held out (${basename(held)})`,
				dir: held,
				out: join(resolve(out), 'heldout'),
			});
		}
		await compareWithCommercial(sets);
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
