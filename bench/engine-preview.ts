/**
 * Preview rendering speed and memory for synthetic designs of 10k, 100k and 1M stitches.
 * Run: npx tsx bench/engine-preview.ts
 */
import { Command, Pattern } from '../sandbox/engine/pattern';
import { rasterisePattern, renderPreview } from '../sandbox/engine/preview';
import type { PreviewFormat } from '../sandbox/engine/previewEncoding';

const DESIGN_SIZE = 2500; // 250 mm, a large hoop
const STITCH_LENGTH = 30; // 3 mm fill stitches
const COLOUR_BLOCKS = 8;

/**
 * A dense design: each colour block is a back-and-forth fill of a rotated band across the
 * hoop, sewn in 3 mm stitches, with a trim and a jump to the next block.
 */
function syntheticDesign(stitchCount: number): Pattern {
	const pattern = new Pattern(stitchCount + COLOUR_BLOCKS * 4);
	const perBlock = Math.floor(stitchCount / COLOUR_BLOCKS);
	const stitchesPerRow = Math.floor(DESIGN_SIZE / 2 / STITCH_LENGTH);
	const rows = Math.ceil(perBlock / stitchesPerRow);
	for (let block = 0; block < COLOUR_BLOCKS; block++) {
		const angle = (block * Math.PI) / COLOUR_BLOCKS;
		const cos = Math.cos(angle);
		const sin = Math.sin(angle);
		const spacing = DESIGN_SIZE / 2 / rows;
		const place = (u: number, v: number, command: Command) =>
			pattern.add(
				DESIGN_SIZE / 2 + u * cos - v * sin,
				DESIGN_SIZE / 2 + u * sin + v * cos,
				command,
			);
		let sewn = 0;
		place(-DESIGN_SIZE / 4, -DESIGN_SIZE / 4, Command.Jump);
		for (let row = 0; row < rows && sewn < perBlock; row++) {
			const v = -DESIGN_SIZE / 4 + row * spacing;
			for (let step = 0; step <= stitchesPerRow && sewn < perBlock; step++, sewn++) {
				const along = step * STITCH_LENGTH + ((row * 7) % 10) * 3; // staggered needle holes, as in a real fill
				const u = -DESIGN_SIZE / 4 + (row % 2 === 0 ? along : DESIGN_SIZE / 2 - along);
				place(u, v, Command.Stitch);
			}
		}
		pattern.add(pattern.lastX(), pattern.lastY(), Command.Trim);
		if (block < COLOUR_BLOCKS - 1)
			pattern.add(pattern.lastX(), pattern.lastY(), Command.ColorChange);
	}
	pattern.add(pattern.lastX(), pattern.lastY(), Command.End);
	return pattern;
}

/** The worst case for drawing: every stitch crosses the whole design (as a damaged file might). */
function edgeToEdgeDesign(stitchCount: number): Pattern {
	const pattern = new Pattern(stitchCount + 1);
	for (let i = 0; i < stitchCount; i++)
		pattern.add(i % 2 ? DESIGN_SIZE : 0, (i * 7) % DESIGN_SIZE, Command.Stitch);
	pattern.add(pattern.lastX(), pattern.lastY(), Command.End);
	return pattern;
}

function megabytes(bytes: number): string {
	return (bytes / 1024 / 1024).toFixed(1);
}

/** Wall time, and CPU time of this process, which other load on the machine disturbs less. */
async function timed<T>(
	work: () => Promise<T> | T,
): Promise<{ result: T; ms: number; cpuMs: number }> {
	const start = performance.now();
	const cpuStart = process.cpuUsage();
	const result = await work();
	const cpu = process.cpuUsage(cpuStart);
	return { result, ms: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function main(): Promise<void> {
	console.log(
		'Raster = drawing only; total = renderPreview end to end (cpu ms includes sharp threads).',
	);
	console.log(
		'design        stitches   drawn at   format  watermark  raster ms  raster cpu  total ms  ' +
			'total cpu  bytes      rss MB  +rss MB',
	);
	const designs: Array<[string, () => Pattern]> = [
		['fill', () => syntheticDesign(10_000)],
		['fill', () => syntheticDesign(100_000)],
		['fill', () => syntheticDesign(1_000_000)],
		['edge-to-edge', () => edgeToEdgeDesign(1_000_000)],
	];
	for (const [kind, build] of designs) {
		const pattern = build();
		// One warm-up so the JIT has compiled the rasteriser before anything is timed.
		await renderPreview(pattern, { maxSizePx: 256 });
		const raster = await timed(() => rasterisePattern(pattern));
		const drawnAt = `${raster.result.width}x${raster.result.height}`;
		for (const [format, watermark] of [
			['png', false],
			['png', true],
			['webp', false],
			['jpeg', false],
		] as Array<[PreviewFormat, boolean]>) {
			global.gc?.();
			const before = process.memoryUsage().rss;
			const render = await timed(() => renderPreview(pattern, { format, watermark }));
			const after = process.memoryUsage().rss;
			console.log(
				[
					kind.padEnd(12),
					String(pattern.length).padEnd(10),
					drawnAt.padEnd(9),
					format.padEnd(7),
					String(watermark).padEnd(10),
					raster.ms.toFixed(0).padStart(9),
					raster.cpuMs.toFixed(0).padStart(10),
					render.ms.toFixed(0).padStart(8),
					render.cpuMs.toFixed(0).padStart(9),
					String(render.result.bytes.length).padStart(9),
					megabytes(after).padStart(7),
					megabytes(after - before).padStart(8),
				].join('  '),
			);
		}
	}
}

void main();
