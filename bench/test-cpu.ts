/**
 * Where `npm test`'s CPU goes. Runs a command (by default `npm test`) under Linux's process accounting, which
 * records every process that ends with its CPU time, short-lived ones included, and prints that CPU summed by
 * the tier of the run that started each process (lint, jest, each e2e lane, queue mode) and by kind (an
 * `n8n start`, a CLI command, Chromium, the sandbox's engine processes). A `ps` every 2 s records each
 * process's first parent and command line, so a process is counted in its tier even after it was
 * reparented. Needs root (accounting is system-wide); installs Debian's `acct` package when it is missing,
 * saying so first. Run: npm run bench:testCpu [-- command ...]
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { fixed, printTable } from './support/table';

/** One ended process as `dump-acct` prints it. */
export interface AccountedProcess {
	pid: number;
	ppid: number;
	command: string;
	cpuSeconds: number;
}

/** A process as `ps` first saw it. */
export interface SeenProcess {
	ppid: number;
	args: string;
}

/**
 * Reads `dump-acct`'s lines: name | version | user | system | elapsed | uid | gid | memory | io | pid | ppid | ...
 * Times are in hundredths of a second (the kernel's AHZ).
 */
export function parseAccounting(text: string): AccountedProcess[] {
	const processes: AccountedProcess[] = [];
	for (const line of text.split('\n')) {
		const fields = line.split('|').map((field) => field.trim());
		if (fields.length < 11 || !/^v\d$/.test(fields[1])) continue;
		const [user, system, pid, ppid] = [fields[2], fields[3], fields[9], fields[10]].map(Number);
		if (![user, system, pid, ppid].every(Number.isFinite)) continue;
		processes.push({ pid, ppid, command: fields[0], cpuSeconds: (user + system) / 100 });
	}
	return processes;
}

/** Adds the processes of one `ps -eo pid,ppid,args` listing that were not seen before. */
export function recordListing(listing: string, seen: Map<number, SeenProcess>): void {
	for (const line of listing.split('\n')) {
		const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
		if (!match) continue;
		const pid = Number(match[1]);
		if (!seen.has(pid)) seen.set(pid, { ppid: Number(match[2]), args: match[3] });
	}
}

/** The tier a command line starts, as scripts/test.sh and test/e2e/run.sh name them, or null. */
export function tierStartedBy(args: string): string | null {
	const check = /\bnpm run (build|lint|scan|typecheck)\b/.exec(args);
	if (check) return check[1];
	if (/\bjest --ci --json\b/.test(args)) return 'jest';
	const lane = /\brun\.sh --parallel --lane=(realtime|main) --only=(\w+)/.exec(args);
	if (lane) return lane[2] === 'queue' ? 'queue' : `${lane[2]} ${lane[1]}`;
	return null;
}

/** What kind of process a command line is, for the table: `n8n start`, `chromium`, `engine process`, ... */
export function kindOf(args: string, command: string): string {
	const n8n = /\/n8n\/bin\/n8n\s+([\w:]+)/.exec(args);
	if (n8n) return `n8n ${n8n[1]}`;
	if (/^chrom/i.test(command) || /\/chromium\b/.test(args)) return 'chromium';
	if (args.includes('jest-worker/build/processChild')) return 'jest worker';
	if (args.includes('sandbox/services/workers/bootstrap')) return 'engine process';
	if (args.includes('workerSandbox.main')) return 'worker sandbox';
	if (args.includes('sandbox/cli.ts')) return 'sandbox';
	if (/\bjest\b/.test(args)) return 'jest';
	if (/\btsc\b/.test(args)) return 'tsc';
	if (/\beslint\b|n8n-node lint/.test(args)) return 'eslint';
	if (/^(postgres|redis-server)/.test(command)) return command;
	if (/^npm\b/.test(args)) return 'npm';
	return command;
}

export interface CpuSummary {
	totalSeconds: number;
	byTier: Map<string, { cpuSeconds: number; processes: number; kinds: Map<string, number> }>;
	byKind: Map<string, { cpuSeconds: number; processes: number; largest: number }>;
}

/**
 * Sums the accounted CPU by tier and by kind. A process's tier is that of its outermost ancestor that starts
 * one, so the nested `npm test` runs of test/e2e/testRun.e2e.ts count in the lane that started them; a
 * process under none is "other" (the run's own scripts, the n8n installs).
 */
export function summarise(
	processes: AccountedProcess[],
	seen: Map<number, SeenProcess>,
): CpuSummary {
	const parent = new Map<number, number>();
	for (const { pid, ppid } of processes) parent.set(pid, ppid);
	for (const [pid, { ppid }] of seen) parent.set(pid, ppid);
	const tierOf = (pid: number): string => {
		let tier = 'other';
		for (let at: number | undefined = pid, steps = 0; at && at > 1 && steps < 100; steps++) {
			const started = tierStartedBy(seen.get(at)?.args ?? '');
			if (started) tier = started;
			at = parent.get(at);
		}
		return tier;
	};
	const summary: CpuSummary = { totalSeconds: 0, byTier: new Map(), byKind: new Map() };
	for (const process of processes) {
		const tierName = tierOf(process.pid);
		const kind = kindOf(seen.get(process.pid)?.args ?? '', process.command);
		summary.totalSeconds += process.cpuSeconds;
		const tier = summary.byTier.get(tierName) ?? { cpuSeconds: 0, processes: 0, kinds: new Map() };
		tier.cpuSeconds += process.cpuSeconds;
		tier.processes++;
		tier.kinds.set(kind, (tier.kinds.get(kind) ?? 0) + process.cpuSeconds);
		summary.byTier.set(tierName, tier);
		const byKind = summary.byKind.get(kind) ?? { cpuSeconds: 0, processes: 0, largest: 0 };
		byKind.cpuSeconds += process.cpuSeconds;
		byKind.processes++;
		byKind.largest = Math.max(byKind.largest, process.cpuSeconds);
		summary.byKind.set(kind, byKind);
	}
	return summary;
}

/** Seconds of busy CPU on the whole machine so far (user, nice, system, irq, softirq; steal left out). */
function busyCpuSeconds(): number {
	const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
		.split('\n')[0]
		.trim()
		.split(/\s+/)
		.map(Number);
	return (user + nice + system + irq + softirq) / 100;
}

/** Debian's acct, installed by scripts/debian-packages.sh when its programs are missing. */
function ensureAcct(): void {
	if (existsSync('/usr/sbin/accton') && existsSync('/usr/sbin/dump-acct')) return;
	const script = path.join(__dirname, '..', 'scripts', 'debian-packages.sh');
	const installed = spawnSync(
		'bash',
		['-c', '. "$0" && debian_install "npm run bench:testCpu needs" acct', script],
		{ stdio: ['ignore', 'inherit', 'inherit'] },
	);
	if (installed.status !== 0)
		throw new Error("Debian's acct package is needed for accton and dump-acct: see above.");
}

async function runCounted(
	command: string[],
	accountingFile: string,
): Promise<{ status: number; seen: Map<number, SeenProcess>; busy: number; seconds: number }> {
	const seen = new Map<number, SeenProcess>();
	const list = async () => {
		const { stdout } = await promisify(execFile)(
			'ps',
			['-eo', 'pid,ppid,args', '--no-headers', '-ww'],
			{
				maxBuffer: 64 * 1024 * 1024,
			},
		);
		recordListing(stdout, seen);
	};
	execFileSync('accton', [accountingFile], { stdio: 'ignore' });
	const busyBefore = busyCpuSeconds();
	const started = performance.now();
	const sampler = setInterval(() => void list().catch(() => undefined), 2_000);
	// Ctrl-C reaches the command too (one process group); this script stays to turn accounting off.
	const ignore = () => undefined;
	process.on('SIGINT', ignore);
	try {
		const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
		// A command that cannot start (not found) ends with 'error' and may never send 'exit'.
		const status = await new Promise<number>((resolve, reject) => {
			child.on('error', reject);
			child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
		});
		await list();
		return {
			status,
			seen,
			busy: busyCpuSeconds() - busyBefore,
			seconds: (performance.now() - started) / 1000,
		};
	} finally {
		clearInterval(sampler);
		process.off('SIGINT', ignore);
		execFileSync('accton', ['off'], { stdio: 'ignore' });
	}
}

async function main(): Promise<void> {
	if (process.getuid?.() !== 0)
		throw new Error(
			'Process accounting is system-wide and needs root: run this benchmark as root.',
		);
	ensureAcct();
	const command = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'test'];
	const folder = mkdtempSync(path.join(tmpdir(), 'embroidery-test-cpu-'));
	try {
		const accountingFile = path.join(folder, 'pacct');
		writeFileSync(accountingFile, '');
		const run = await runCounted(command, accountingFile);
		const dump = execFileSync('dump-acct', [accountingFile], {
			encoding: 'utf8',
			maxBuffer: 256 * 1024 * 1024,
		});
		const summary = summarise(parseAccounting(dump), run.seen);
		const largest = (kinds: Map<string, number>) =>
			[...kinds]
				.sort((a, b) => b[1] - a[1])
				.slice(0, 4)
				.map(([kind, seconds]) => `${kind} ${fixed(seconds, 0)}`)
				.join(', ');
		printTable(
			`CPU of \`${command.join(' ')}\` by the tier that started each process`,
			['Tier', 'CPU-s', 'Processes', 'Largest kinds (CPU-s)'],
			[...summary.byTier]
				.sort((a, b) => b[1].cpuSeconds - a[1].cpuSeconds)
				.map(([tier, { cpuSeconds, processes, kinds }]) => [
					tier,
					fixed(cpuSeconds, 0),
					processes,
					largest(kinds),
				]),
			[
				`${fixed(run.seconds, 0)} s of wall time, exit status ${run.status}; ` +
					`${fixed(summary.totalSeconds, 0)} CPU-s accounted to the processes that ended, ` +
					`${fixed(run.busy, 0)} CPU-s busy on the whole machine (/proc/stat)`,
			],
		);
		printTable(
			'CPU by kind of process',
			['Kind', 'Processes', 'CPU-s', 'Largest one'],
			[...summary.byKind]
				.sort((a, b) => b[1].cpuSeconds - a[1].cpuSeconds)
				.slice(0, 20)
				.map(([kind, { cpuSeconds, processes, largest: one }]) => [
					kind,
					processes,
					fixed(cpuSeconds, 0),
					fixed(one, 1),
				]),
		);
		process.exitCode = run.status;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	});
}
