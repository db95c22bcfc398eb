/**
 * scripts/n8n.sh's ensure_n8n (npm start's phase 3, and the e2e runs'): n8n is installed into a staging
 * folder and moved into place with its marker only when complete, so an install stopped at any point
 * (Ctrl-C, kill -9, a failure) leaves nothing a later run takes for done, and the next run installs it.
 * Local stand-ins replace the registry's n8n and sqlite3 (support/standInPackages.ts); real time, as the
 * installs are real processes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eventually } from '../support/realTime';
import {
	cacheEntries,
	killLeftOverRuns,
	reachedGate,
	runInstall,
	signalGroup,
} from './support/installRun';
import { makeStandIns, type StandIns } from './support/standInPackages';

const marker = '.embroidery-install-complete';
let folder: string;
let cache: string;
let standIns: StandIns;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'embroidery-install-'));
	cache = join(folder, 'cache');
	standIns = makeStandIns(folder);
});

afterEach(() => {
	killLeftOverRuns();
	rmSync(folder, { recursive: true, force: true });
});

// Each install is a real npm run of a few seconds.
jest.setTimeout(120_000);

/** ensure_n8n of the stand-in, then its n8n command run as npm start runs it. */
const ensureAndRun = 'ensure_n8n 9.9.9 24; "$N8N_NODE_BIN" "$N8N_BIN"';

async function installs(): Promise<string> {
	const run = runInstall(cache, standIns, ensureAndRun);
	expect({ code: await run.ended, output: run.output() }).toEqual({
		code: 0,
		output: expect.stringContaining(standIns.n8nVersion) as string,
	});
	expect(cacheEntries(cache)).toEqual(['.install.lock', 'n8n-9.9.9']);
	expect(existsSync(join(cache, 'n8n-9.9.9', marker))).toBe(true);
	return run.output();
}

describe('ensure_n8n installs through a staging folder (real time)', () => {
	it('moves a complete install into place with its marker; a second run installs nothing', async () => {
		expect(await installs()).toContain('Installing n8n 9.9.9 for Node 24');
		const again = runInstall(cache, standIns, ensureAndRun);
		expect(await again.ended).toBe(0);
		expect(again.output()).not.toContain('Installing');
		expect(again.output()).toContain(standIns.n8nVersion);
	});

	it('killed outright (kill -9) while npm resolves: nothing in place, the next run installs', async () => {
		// npm reads a local tarball's manifest while it resolves the tree: a FIFO holds it there.
		const fifo = join(folder, 'held.tgz');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const held = {
			...standIns,
			n8nDependencies: JSON.stringify({
				...(JSON.parse(standIns.n8nDependencies) as object),
				held: `file:${fifo}`,
			}),
		};
		const run = runInstall(cache, held, ensureAndRun);
		const writer = await open(fifo, 'w');
		signalGroup(run, 'SIGKILL');
		await run.ended;
		await writer.close();
		expect(cacheEntries(cache)).toEqual(['.install.lock', 'n8n-9.9.9.staging']);
		expect(await installs()).toContain('Removing what an unfinished install of n8n 9.9.9 left');
	});

	it('killed outright while the sqlite3 binding builds: nothing in place, the next run installs', async () => {
		const run = runInstall(cache, standIns, ensureAndRun, { gated: true });
		await reachedGate(standIns, 'sqlite3', run);
		expect(existsSync(join(cache, 'n8n-9.9.9.staging', 'node_modules', 'n8n'))).toBe(true);
		signalGroup(run, 'SIGKILL');
		await run.ended;
		expect(cacheEntries(cache)).toEqual(['.install.lock', 'n8n-9.9.9.staging']);
		writeFileSync(join(standIns.gates, 'sqlite3.open'), '');
		await installs();
	});

	it("stopped by Ctrl-C during npm start's logged install: it says so and removes the staging folder", async () => {
		const log = join(folder, 'npm-start.log');
		const run = runInstall(cache, standIns, ensureAndRun, {
			gated: true,
			env: { EMBROIDERY_INSTALL_LOG: log },
		});
		await reachedGate(standIns, 'sqlite3', run);
		signalGroup(run, 'SIGINT');
		expect(await run.ended).not.toBe(0);
		expect(run.output()).toContain(
			'n8n 9.9.9 was not installed (exit 130); nothing was put in place, the next run installs it afresh.',
		);
		expect(cacheEntries(cache)).toEqual(['.install.lock']);
		writeFileSync(join(standIns.gates, 'sqlite3.open'), '');
		await installs();
	});

	it('a failed install puts nothing in place and says what failed', async () => {
		const broken = {
			...standIns,
			n8nDependencies: JSON.stringify({ n8n: `file:${join(folder, 'missing.tgz')}` }),
		};
		const run = runInstall(cache, broken, ensureAndRun);
		expect(await run.ended).not.toBe(0);
		expect(run.output()).toContain('n8n 9.9.9 was not installed');
		expect(cacheEntries(cache)).toEqual(['.install.lock']);
	});
});

describe('ensure_n8n and an install made before the staging folder (real time)', () => {
	/** An install as the earlier scripts left it: in place, no marker. */
	async function oldLayoutInstall(): Promise<string> {
		await installs();
		const dir = join(cache, 'n8n-9.9.9');
		rmSync(join(dir, marker));
		return dir;
	}

	it('keeps a complete one, adding the marker, without installing again', async () => {
		const dir = await oldLayoutInstall();
		const run = runInstall(cache, standIns, ensureAndRun);
		expect(await run.ended).toBe(0);
		expect(run.output()).toContain('was installed by an earlier npm start and is complete: kept.');
		expect(run.output()).not.toContain('Installing');
		expect(existsSync(join(dir, marker))).toBe(true);
	});

	it('installs afresh over one an interrupted extraction left (a package folder without package.json)', async () => {
		const dir = await oldLayoutInstall();
		// What issue 39 found: @smithy/core extracted without its package.json.
		mkdirSync(join(dir, 'node_modules', '@smithy', 'core', 'dist-cjs'), { recursive: true });
		writeFileSync(join(dir, 'node_modules', '@smithy', 'core', 'dist-cjs', 'index.js'), '');
		const run = runInstall(cache, standIns, ensureAndRun);
		expect(await run.ended).toBe(0);
		expect(run.output()).toContain('Removing what an unfinished install of n8n 9.9.9 left');
		expect(existsSync(join(dir, 'node_modules', '@smithy'))).toBe(false);
		expect(existsSync(join(dir, marker))).toBe(true);
	});

	it('installs afresh over one whose sqlite3 binding was never built', async () => {
		const dir = await oldLayoutInstall();
		rmSync(join(dir, 'node_modules', 'sqlite3', 'build'), { recursive: true });
		const run = runInstall(cache, standIns, ensureAndRun);
		expect(await run.ended).toBe(0);
		expect(run.output()).toContain('Installing n8n 9.9.9');
		expect(existsSync(join(dir, 'node_modules', 'sqlite3', 'build', 'Release'))).toBe(true);
	});
});

describe('one install at a time per cache folder (real time)', () => {
	it('a second run waits for the first, says so, then finds n8n in place and installs nothing', async () => {
		const first = runInstall(cache, standIns, ensureAndRun, { gated: true });
		await reachedGate(standIns, 'sqlite3', first);
		const second = runInstall(cache, standIns, ensureAndRun);
		const waiting =
			/Waiting for another install into .+ to finish \(process (\d+) installing n8n 9\.9\.9/;
		expect(await eventually(() => waiting.test(second.output()), 30_000)).toBe(true);
		expect(Number(waiting.exec(second.output())![1])).toBeGreaterThan(0);
		writeFileSync(join(standIns.gates, 'sqlite3.open'), '');
		expect(await first.ended).toBe(0);
		expect(await second.ended).toBe(0);
		expect(second.output()).not.toContain('Installing n8n');
		expect(second.output()).toContain(standIns.n8nVersion);
	});

	it('a holder killed outright frees the lock: the waiting run installs', async () => {
		const first = runInstall(cache, standIns, ensureAndRun, { gated: true });
		await reachedGate(standIns, 'sqlite3', first);
		const second = runInstall(cache, standIns, ensureAndRun, { gated: true });
		expect(
			await eventually(() => second.output().includes('Waiting for another install'), 30_000),
		).toBe(true);
		signalGroup(first, 'SIGKILL');
		await first.ended;
		rmSync(join(standIns.gates, 'sqlite3.reached'));
		await reachedGate(standIns, 'sqlite3', second);
		writeFileSync(join(standIns.gates, 'sqlite3.open'), '');
		expect(await second.ended).toBe(0);
		expect(second.output()).toContain('Removing what an unfinished install of n8n 9.9.9 left');
		expect(readFileSync(join(cache, 'n8n-9.9.9', marker), 'utf8')).toMatch(/^\d{4}-/);
	});
});
