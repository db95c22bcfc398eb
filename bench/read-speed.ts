/**
 * Read CPU time per stitch of every readable format, against the DST reader's (the target is at most 2x): on the
 * shared Star sample of each format, and on a 100,000-stitch design where the format is writable. With
 * PYEMBROIDERY_DIR set to a local copy of pyembroidery, its read time of the same samples is shown beside.
 * Printed first by `npm run bench:engine`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { listFormats, readPattern, writePattern } from '../sandbox/engine';
import { countCommands } from '../sandbox/engine/normalise';
import { Command, type Pattern } from '../sandbox/engine/pattern';
import { builtStars } from '../test/sandbox/engine/support/builtFiles';
import { starSampleNames } from '../test/sandbox/engine/support/starSamples';
import { fixture, fixturesDir } from '../test/support/embroideryFiles';
import { fixed, printTable } from './support/table';

interface Source {
	bytes: Uint8Array;
	format: string;
	stitches: number;
}

const sourceOf = (bytes: Uint8Array, format: string): Source => ({
	bytes,
	format,
	stitches: Math.max(1, countCommands(readPattern(bytes, format), Command.Stitch)),
});

/**
 * CPU nanoseconds per stitch over repeated reads of at least `roundMs`: this process's CPU time, which other
 * processes on a shared machine stretch far less than wall time.
 */
function round(source: Source, roundMs = 60): number {
	let reads = 0;
	const started = performance.now();
	const cpuStarted = process.cpuUsage();
	while (performance.now() - started < roundMs || reads < 3) {
		readPattern(source.bytes, source.format);
		reads++;
	}
	const cpu = process.cpuUsage(cpuStarted);
	return ((cpu.user + cpu.system) * 1e3) / (reads * source.stitches);
}

/**
 * A reader's time per stitch and DST's on the same kind of source, in rounds taken in turn, so the load of
 * other processes on a shared machine weighs on both alike: the fastest round of each, after a warm-up.
 */
function againstDst(source: Source, dst: Source): { ns: number; ratio: number } {
	round(source);
	round(dst);
	const own: number[] = [];
	const theirs: number[] = [];
	for (let i = 0; i < 5; i++) {
		theirs.push(round(dst));
		own.push(round(source));
	}
	const ns = Math.min(...own);
	return { ns, ratio: ns / Math.min(...theirs) };
}

/** pyembroidery's read of each sample, ns per stitch, keyed by file name; empty without a local copy. */
function pyembroideryNsPerStitch(names: string[]): Record<string, number> {
	const dir = process.env.PYEMBROIDERY_DIR;
	if (!dir || !existsSync(join(dir, 'pyembroidery'))) return {};
	const script = [
		'import sys, time, json',
		'sys.path.insert(0, sys.argv[1])',
		'import pyembroidery',
		'out = {}',
		'for path in sys.argv[2:]:',
		'    try:',
		'        pattern = pyembroidery.read(path)',
		'        stitches = max(1, pattern.count_stitch_commands(pyembroidery.STITCH)) if pattern else 0',
		'        if not stitches: continue',
		'        reads, started = 0, time.process_time()',
		'        while time.process_time() - started < 0.3 or reads < 3:',
		'            pyembroidery.read(path); reads += 1',
		'        out[path.split("/")[-1]] = (time.process_time() - started) * 1e9 / (reads * stitches)',
		'    except Exception:',
		'        pass',
		'print(json.dumps(out))',
	].join('\n');
	const paths = names.map((name) => join(fixturesDir, name));
	return JSON.parse(
		execFileSync('python3', ['-c', script, dir, ...paths], { encoding: 'utf8' }),
	) as Record<string, number>;
}

export function printReadSpeed(design: Pattern): void {
	const formats = listFormats().filter((format) => format.readable);
	const samples = starSampleNames();
	const sampleOf = (extension: string) =>
		samples.find((name) => name.split('.').pop()!.toLowerCase() === extension.toLowerCase());
	const python = pyembroideryNsPerStitch(samples);
	const dstSample = sourceOf(new Uint8Array(fixture('Star.DST')), 'dst');
	const dstDesign = sourceOf(writePattern(design, 'dst').bytes, 'dst');
	// Formats without a shared sample are read from Star.DST's design built in their layout.
	const built = builtStars();
	const sampleBytes = (extension: string) => {
		const sample = sampleOf(extension);
		if (sample) return new Uint8Array(fixture(sample));
		return built.find((file) => file.name.split('.').pop() === extension.toLowerCase())?.bytes;
	};
	const rows = formats.map((format) => {
		const sample = sampleOf(format.extension);
		const bytes = sampleBytes(format.extension);
		return {
			format: format.format,
			onSample: bytes ? againstDst(sourceOf(bytes, format.format), dstSample) : null,
			onDesign: format.writable
				? againstDst(sourceOf(writePattern(design, format.format).bytes, format.format), dstDesign)
				: null,
			python: sample ? (python[sample] ?? null) : null,
		};
	});
	const ns = (value: number | null | undefined) => (value == null ? '-' : fixed(value, 0));
	const times = (value: number | null | undefined) => (value == null ? '-' : `${fixed(value)}x`);
	const pythonDst = python['Star.DST'];
	const withPython = pythonDst !== undefined;
	printTable(
		'Read CPU time per stitch (ns), and against the DST reader on the same kind of source (target: at most 2x)',
		[
			'format',
			'Star sample',
			'x DST',
			`${Math.round(countCommands(design, Command.Stitch) / 1000)}k design`,
			'x DST',
			...(withPython ? ['pyembroidery', 'x its own DST'] : []),
		],
		rows.map((row) => [
			row.format,
			ns(row.onSample?.ns),
			times(row.onSample?.ratio),
			ns(row.onDesign?.ns),
			times(row.onDesign?.ratio),
			...(withPython ? [ns(row.python), times(row.python && row.python / pythonDst)] : []),
		]),
		[
			'x DST: rounds of this reader and the DST reader taken in turn, the fastest of each.',
			'Star sample: formats without a shared one read Star.DST built in their layout (builtFiles.ts).',
			withPython
				? 'pyembroidery: the same Star samples read by the copy in PYEMBROIDERY_DIR, with python3.'
				: 'Set PYEMBROIDERY_DIR to a local copy of pyembroidery to see its read times beside.',
		],
	);
}
