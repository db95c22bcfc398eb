/**
 * `npm test` (scripts/test.sh) interrupted as a terminal's Ctrl-C does (SIGINT to its whole process group), in
 * several phases of a small run (EMBROIDERY_TEST_TIERS): while the type check runs, while jest runs a file that
 * starts sandboxes, while the real-time lane runs `npm start` beside jest, while a line's real-time lane runs with
 * its main lane still to come (which must then never start), and while the end-to-end tier has n8n running
 * (detached, in process groups of their own), once and twice in quick succession. After each, no process of the
 * run may be left (the run marks them: EMBROIDERY_TEST_RUN in their environment; its own subshells show the
 * TMPDIR it was given) and the temporary folder it was given must be empty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sleep } from '../../scripts/n8n';
import { eventually } from '../support/realTime';
import { repositoryRoot } from '../support/sandboxProcess';

interface Run {
	child: ChildProcess;
	output: () => string;
	/** Whether its output has ended: stdout and stderr closed (node's 'exit' can come before their last lines). */
	outputEnded: () => boolean;
	/** The temporary folder the run was given (TMPDIR): it must be empty once the run has stopped. */
	tmp: string;
}

interface RunProcess {
	pid: number;
	command: string;
}

function readProc(pid: string, file: string): string | undefined {
	try {
		return readFileSync(`/proc/${pid}/${file}`, 'utf8');
	} catch {
		return undefined;
	}
}

/**
 * The processes of a run: those whose environment carries its mark (scripts/test.sh sets
 * EMBROIDERY_TEST_RUN=npm-test-<its pid>-...), the script's own forks (its subshells show the environment it was
 * started with, TMPDIR the folder this test gave it, not the mark it exported since), and those working in its
 * temporary folder (Postgres, which runs as its own account); zombies have ended.
 */
function processesOf(run: Run): RunProcess[] {
	const mark = `EMBROIDERY_TEST_RUN=npm-test-${run.child.pid}-`;
	const found: RunProcess[] = [];
	for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		const stat = readProc(pid, 'stat');
		if (!stat || stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
		const environment = (readProc(pid, 'environ') ?? '').split('\0');
		const marked = environment.some((v) => v.startsWith(mark) || v === `TMPDIR=${run.tmp}`);
		let cwd = '';
		try {
			cwd = readlinkSync(`/proc/${pid}/cwd`);
		} catch {
			// Ended meanwhile, or not ours to read.
		}
		if (marked || cwd.startsWith(`${run.tmp}/`)) {
			const command = (readProc(pid, 'cmdline') ?? '').replaceAll('\0', ' ').trim();
			found.push({ pid: Number(pid), command });
		}
	}
	return found;
}

/** Seconds since boot, and clock ticks per second in /proc's start times (USER_HZ, 100 on Linux). */
const uptime = () => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
const ticksPerSecond = 100;

/** A leftover process in words: its command, its parent's, its state and how long ago it started. */
function described({ pid, command }: RunProcess): string {
	const stat = readProc(String(pid), 'stat') ?? '';
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const [state, ppid] = fields;
	const age = uptime() - Number(fields[19]) / ticksPerSecond;
	const parent = (readProc(ppid, 'cmdline') ?? '').replaceAll('\0', ' ').trim();
	return `${pid} (${state}, started ${age.toFixed(1)} s ago, parent ${ppid}: ${parent}): ${command}`;
}

const stillRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

describe('npm test and Ctrl-C (real time)', () => {
	// In the real-time lane, beside the checks, jest and the other lanes' n8n starts (load average 10 to 20):
	// a small run's global setup alone can take minutes there before it reaches the phase to interrupt.
	jest.setTimeout(900_000);
	const runs: Run[] = [];

	/** Starts scripts/test.sh with the given tiers, in a process group of its own, as a terminal runs it. */
	async function startRun(env: Record<string, string>): Promise<Run> {
		const tmp = await mkdtemp(join(tmpdir(), 'embroidery-testrun-'));
		const { NODE_ENV: _jest, EMBROIDERY_TEST_RUN: _outer, ...inherited } = process.env;
		let output = '';
		const child = spawn('bash', ['scripts/test.sh'], {
			cwd: repositoryRoot,
			env: {
				...inherited,
				...env,
				TMPDIR: tmp,
				// jest's transform cache (test/support/cacheDirectory.js) stays warm, outside the folder checked.
				EMBROIDERY_OUTER_TMPDIR: process.env.EMBROIDERY_OUTER_TMPDIR ?? tmpdir(),
				EMBROIDERY_BUILT: '1',
			},
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let outputEnded = false;
		child.stdout!.on('data', (chunk) => (output += chunk));
		child.stderr!.on('data', (chunk) => (output += chunk));
		child.on('close', () => (outputEnded = true));
		const run = { child, output: () => output, outputEnded: () => outputEnded, tmp };
		runs.push(run);
		return run;
	}

	/** Waits until a process of the run matches `pattern` (the phase to interrupt has begun). */
	async function waitForPhase(run: Run, pattern: RegExp, what: string): Promise<void> {
		const reached = await eventually(
			() => !stillRunning(run.child) || processesOf(run).some((p) => pattern.test(p.command)),
			600_000,
		);
		if (!reached || !stillRunning(run.child))
			throw new Error(`The run never reached ${what}:\n${run.output().slice(-3000)}`);
	}

	/** What a terminal's Ctrl-C does: SIGINT to the whole foreground process group. */
	const interrupt = (run: Run) => process.kill(-run.child.pid!, 'SIGINT');

	async function expectAllStopped(run: Run, withinMs: number): Promise<void> {
		const exited = await eventually(() => !stillRunning(run.child), withinMs);
		expect({ exited, output: exited ? 'ended' : run.output().slice(-3000) }).toEqual({
			exited: true,
			output: 'ended',
		});
		// Its last words (what it stopped, or what it could not) are read whole; a process left holding its output
		// open keeps it from ending, and is named below.
		await eventually(run.outputEnded, 10_000);
		// 130, as a shell reports a run ended by Ctrl-C; any other status comes with the words it ended on.
		const code = run.child.exitCode;
		expect({ code, output: code === 130 ? '' : run.output().slice(-3000) }).toEqual({
			code: 130,
			output: '',
		});
		// A process left over is named with what tells how it got there: its parent, its state and its age
		// (once seen: an `n8n import:credentials` left after a double Ctrl-C), and the run's own last words.
		const left = processesOf(run).map(described);
		expect({ left, output: left.length ? run.output().slice(-2000) : '' }).toEqual({
			left: [],
			output: '',
		});
		expect(readdirSync(run.tmp)).toEqual([]);
		expect(run.output()).toContain('Stopped: no process of this run is left');
	}

	afterAll(async () => {
		// A failed test must leave nothing behind either.
		for (const run of runs) {
			for (const { pid } of processesOf(run)) {
				try {
					process.kill(pid, 'SIGKILL');
				} catch {
					// Ended already.
				}
			}
			await rm(run.tmp, { recursive: true, force: true });
		}
	});

	it('stops the type check', async () => {
		const run = await startRun({ EMBROIDERY_TEST_TIERS: 'typecheck' });
		await waitForPhase(run, /typescript\/bin\/tsc|\btsc\b/, 'the type check');
		interrupt(run);
		await expectAllStopped(run, 120_000);
	});

	it('stops jest and the sandboxes its test file started', async () => {
		const run = await startRun({
			EMBROIDERY_TEST_TIERS: 'jest',
			EMBROIDERY_TEST_JEST: 'test/sandbox/cli.test.ts',
		});
		await waitForPhase(run, /sandbox\/cli\.ts/, 'a sandbox started by jest');
		interrupt(run);
		await expectAllStopped(run, 120_000);
	});

	const inN8n2Only = process.env.EMBROIDERY_E2E_ENV === 'n8n1' ? it.skip : it;

	inN8n2Only(
		'stops the end-to-end tier with n8n running in its own process group, Ctrl-C once',
		async () => {
			// A file that starts n8n first thing (it shares one served n8n): n8n.e2e.ts ran three CLI commands before.
			const run = await startRun({
				EMBROIDERY_TEST_TIERS: 'n8n2',
				EMBROIDERY_TEST_E2E: 'test/e2e/actions.e2e.ts',
			});
			await waitForPhase(run, /n8n\/bin\/n8n start/, 'n8n start');
			interrupt(run);
			// n8n gets SIGTERM and up to 15 s to shut down before it is killed.
			await expectAllStopped(run, 180_000);
		},
	);

	inN8n2Only(
		'stops the real-time lane that runs beside jest, with npm start running under it, Ctrl-C once',
		async () => {
			const run = await startRun({
				EMBROIDERY_TEST_TIERS: 'jest,n8n2',
				EMBROIDERY_TEST_JEST: 'test/sandbox/cli.test.ts',
				EMBROIDERY_TEST_E2E: 'test/e2e/start.e2e.ts',
			});
			await waitForPhase(run, /scripts\/start\.ts/, 'npm start under the real-time lane');
			interrupt(run);
			await expectAllStopped(run, 180_000);
		},
	);

	inN8n2Only(
		"stops a line's real-time lane without its main lane starting after it, Ctrl-C once",
		async () => {
			// A line's lanes run one after the other in a subshell of scripts/test.sh: once its real-time lane is
			// stopped, that subshell must be stopped too, or it goes on to start the main lane.
			const run = await startRun({
				EMBROIDERY_TEST_TIERS: 'n8n2',
				EMBROIDERY_TEST_E2E: 'test/e2e/triggerScheduler.e2e.ts test/e2e/n8n.e2e.ts',
			});
			await waitForPhase(run, /n8n\/bin\/n8n /, "an n8n command of the real-time lane's setup");
			const started: string[] = [];
			const watch = setInterval(() => {
				for (const { command } of processesOf(run))
					if (/--lane=main/.test(command) && !started.includes(command)) started.push(command);
			}, 100);
			try {
				interrupt(run);
				await expectAllStopped(run, 180_000);
			} finally {
				clearInterval(watch);
			}
			expect(started).toEqual([]);
		},
	);

	inN8n2Only('kills at once when Ctrl-C comes twice in quick succession', async () => {
		const run = await startRun({
			EMBROIDERY_TEST_TIERS: 'n8n2',
			EMBROIDERY_TEST_E2E: 'test/e2e/n8n.e2e.ts',
		});
		await waitForPhase(run, /n8n\/bin\/n8n /, 'an n8n command');
		interrupt(run);
		await sleep(300);
		interrupt(run);
		await expectAllStopped(run, 30_000);
	});
});
