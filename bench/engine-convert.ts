/**
 * Conversion benchmark: first every reader's time per stitch against DST's (read-speed.ts); then
 * generated designs of 10k, 100k and 1M stitches, converted between every readable and every writable
 * format (read the source bytes, write the target). Prints the median time of a few runs and the memory
 * the conversion holds at its peak (heap + array buffers after reading and after writing, over a
 * garbage-collected baseline).
 * Run: npx tsx bench/engine-convert.ts [stitches]   (or npm run bench:engine)
 */
import { cpus, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { listFormats, readPattern, writePattern } from '../sandbox/engine';
import { Command, Pattern } from '../sandbox/engine/pattern';
import { printReadSpeed } from './read-speed';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const sizes = process.argv[2] ? [Number(process.argv[2])] : [10_000, 100_000, 1_000_000];

/**
 * A design shaped like real ones: colour blocks of back-and-forth fill rows with 3 mm stitches,
 * a trim and a jump between areas, all inside a 180 mm square.
 */
function generatedDesign(stitches: number): Pattern {
	const pattern = new Pattern(stitches + stitches / 20 + 64);
	const colours = 12;
	const perBlock = Math.ceil(stitches / colours);
	let made = 0;
	for (let block = 0; block < colours && made < stitches; block++) {
		let originX = -900 + ((block * 370) % 1500);
		let originY = -900 + ((block * 530) % 1500);
		pattern.add(originX, originY, Command.Jump);
		let row = 0;
		for (let i = 0; i < perBlock && made < stitches; ) {
			const y = originY + (row % 75) * 4;
			const forward = row % 2 === 0;
			for (let step = 0; step <= 10 && i < perBlock && made < stitches; step++, i++, made++) {
				const x = originX + (forward ? step : 10 - step) * 30;
				pattern.add(x, y, Command.Stitch);
			}
			row++;
			if (row % 300 === 0) {
				pattern.add(pattern.lastX(), pattern.lastY(), Command.Trim);
				originX = -900 + ((originX + 1237) % 1500);
				originY = -900 + ((originY + 911) % 1500);
				pattern.add(originX, originY, Command.Jump);
			}
		}
		if (block < colours - 1) pattern.add(pattern.lastX(), pattern.lastY(), Command.ColorChange);
		pattern.threads.push({
			color: (block * 0x3b5d7f + 0x204060) & 0xffffff,
			name: `Thread ${block + 1}`,
		});
	}
	pattern.add(pattern.lastX(), pattern.lastY(), Command.End);
	return pattern;
}

function liveBytes(): number {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.arrayBuffers;
}

interface Measurement {
	medianMs: number;
	/** CPU time is steadier than wall time when other processes share the machine. */
	medianCpuMs: number;
	peakMb: number;
	outputKb: number;
}

function convert(source: Uint8Array, from: string, to: string, runs: number): Measurement {
	const times: number[] = [];
	const cpuTimes: number[] = [];
	let peak = 0;
	let outputBytes = 0;
	for (let run = 0; run < runs; run++) {
		collectGarbage();
		const baseline = liveBytes();
		const started = performance.now();
		const cpuStarted = process.cpuUsage();
		const pattern = readPattern(source, from);
		const afterRead = liveBytes();
		const written = writePattern(pattern, to);
		times.push(performance.now() - started);
		const cpu = process.cpuUsage(cpuStarted);
		cpuTimes.push((cpu.user + cpu.system) / 1000);
		const afterWrite = liveBytes();
		peak = Math.max(peak, afterRead - baseline, afterWrite - baseline);
		outputBytes = written.bytes.length;
	}
	const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return {
		medianMs: median(times),
		medianCpuMs: median(cpuTimes),
		peakMb: peak / 1048576,
		outputKb: outputBytes / 1024,
	};
}

function main(): void {
	const formats = listFormats();
	const readable = formats.filter((format) => format.readable).map((format) => format.format);
	const writable = formats.filter((format) => format.writable).map((format) => format.format);
	console.log(
		'Engine conversion: read source + write target, median of runs; peak = live heap + buffers over baseline',
	);
	console.log(
		`load average ${loadavg()
			.map((load) => load.toFixed(1))
			.join(' ')} on ${cpus().length} cores (wall times stretch under load)`,
	);
	printReadSpeed(generatedDesign(100_000));
	for (const stitches of sizes) {
		const design = generatedDesign(stitches);
		const runs = stitches >= 1_000_000 ? 3 : 7;
		console.log(`\n${stitches.toLocaleString('en')} stitches (${runs} runs per pair)`);
		console.log(
			`${'from'.padEnd(5)} ${'to'.padEnd(5)} ${'wall ms'.padStart(8)} ${'cpu ms'.padStart(8)} ` +
				`${'peak MB'.padStart(8)} ${'in KB'.padStart(8)} ${'out KB'.padStart(8)}`,
		);
		for (const from of readable) {
			if (!writable.includes(from)) continue;
			const source = writePattern(design, from).bytes;
			// One untimed conversion first, so the JIT has compiled the reader and writer.
			writePattern(readPattern(source, from), from);
			for (const to of writable) {
				const result = convert(source, from, to, runs);
				console.log(
					`${from.padEnd(5)} ${to.padEnd(5)} ${result.medianMs.toFixed(1).padStart(8)} ` +
						`${result.medianCpuMs.toFixed(1).padStart(8)} ${result.peakMb.toFixed(1).padStart(8)} ` +
						`${(source.length / 1024).toFixed(0).padStart(8)} ${result.outputKb.toFixed(0).padStart(8)}`,
				);
			}
		}
	}
	console.log(`\nprocess peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

main();
