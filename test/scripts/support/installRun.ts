/**
 * Runs scripts/node24.sh's and scripts/n8n.sh's install functions in bash, as npm start's phases do, with
 * a cache folder of the test's own and the local stand-in packages (standInPackages.ts), each run in a
 * process group of its own so a test can stop it as a terminal does (SIGINT) or outright (SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eventually } from '../../support/realTime';
import { repositoryRoot } from '../../support/sandboxProcess';
import { makeStandIns, type StandIns } from './standInPackages';

const started: InstallRun[] = [];

/** Kills every run a test started that still runs (a failed test must leave none waiting at a gate). */
export function killLeftOverRuns(): void {
	for (const run of started.splice(0)) if (run.child.exitCode === null) signalGroup(run, 'SIGKILL');
}

export interface InstallRun {
	child: ChildProcess;
	output: () => string;
	/** Resolves with the exit code (or the signal's name) once bash has ended. */
	ended: Promise<number | string>;
}

/**
 * `script` runs after `. scripts/node24.sh; . scripts/n8n.sh` with set -euo pipefail, as in start.sh;
 * `gated` makes the stand-ins' scripts wait at their gates.
 */
export function runInstall(
	cache: string,
	standIns: StandIns,
	script: string,
	{ gated = false, env = {} }: { gated?: boolean; env?: Record<string, string> } = {},
): InstallRun {
	let output = '';
	const child = spawn(
		'bash',
		['-c', `. scripts/node24.sh; . scripts/n8n.sh; set -euo pipefail; ${script}`],
		{
			cwd: repositoryRoot,
			env: {
				...process.env,
				EMBROIDERY_CACHE_DIR: cache,
				EMBROIDERY_N8N_DEPENDENCIES: standIns.n8nDependencies,
				EMBROIDERY_NODE_PACKAGE: standIns.nodePackage,
				...(gated ? { EMBROIDERY_STAND_IN_GATES: standIns.gates } : {}),
				...env,
			},
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	child.stdout!.on('data', (chunk) => (output += chunk));
	child.stderr!.on('data', (chunk) => (output += chunk));
	const ended = new Promise<number | string>((resolve) =>
		child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
	);
	const run = { child, output: () => output, ended };
	started.push(run);
	return run;
}

/** Sends a signal to the run's whole process group (bash, npm and the scripts npm runs). */
export function signalGroup(run: InstallRun, signal: NodeJS.Signals): void {
	try {
		process.kill(-run.child.pid!, signal);
	} catch {
		// The group has ended.
	}
}

/** Waits until the stand-in's script reached its gate (it then waits there until the gate opens). */
export async function reachedGate(
	standIns: StandIns,
	name: string,
	run: InstallRun,
): Promise<void> {
	const reached = await eventually(
		() => existsSync(join(standIns.gates, `${name}.reached`)) || run.child.exitCode !== null,
		60_000,
	);
	if (!reached || !existsSync(join(standIns.gates, `${name}.reached`)))
		throw new Error(`The install never reached the ${name} gate:\n${run.output()}`);
}

/** What the cache folder holds, hidden files included, sorted. */
export function cacheEntries(cache: string): string[] {
	return existsSync(cache) ? readdirSync(cache).sort() : [];
}

/** The file an install writes last (scripts/node24.sh). */
export const installMarker = '.embroidery-install-complete';

/** One test's folder: its own cache folder and stand-in packages. */
export interface InstallFolders {
	folder: string;
	cache: string;
	standIns: StandIns;
}

/**
 * Each test of the file gets a folder of its own (a cache folder and the stand-in packages), removed after it
 * with whatever it left running. The object returned holds the current test's folders: read its fields inside
 * tests and hooks. Each install is a real npm run of a few seconds, hence the tests' time limit.
 */
export function useInstallFolders(): InstallFolders {
	jest.setTimeout(120_000);
	const current = {} as InstallFolders;
	beforeEach(() => {
		const folder = mkdtempSync(join(tmpdir(), 'embroidery-install-'));
		Object.assign(current, {
			folder,
			cache: join(folder, 'cache'),
			standIns: makeStandIns(folder),
		});
	});
	afterEach(() => {
		killLeftOverRuns();
		rmSync(current.folder, { recursive: true, force: true });
	});
	return current;
}

/** ensure_n8n of the stand-in, then its n8n command run as npm start runs it. */
export const ensureAndRun = 'ensure_n8n 9.9.9 24; "$N8N_NODE_BIN" "$N8N_BIN"';

/** Runs ensure_n8n to its end and checks it left the stand-in n8n in place, complete; returns its output. */
export async function installsN8n({ cache, standIns }: InstallFolders): Promise<string> {
	const run = runInstall(cache, standIns, ensureAndRun);
	expect({ code: await run.ended, output: run.output() }).toEqual({
		code: 0,
		output: expect.stringContaining(standIns.n8nVersion) as string,
	});
	expect(cacheEntries(cache)).toEqual([
		'.install.lock',
		'n8n-9.9.9',
		'sqlite3-binding-5.1.7-stand-in',
	]);
	expect(existsSync(join(cache, 'n8n-9.9.9', installMarker))).toBe(true);
	return run.output();
}
