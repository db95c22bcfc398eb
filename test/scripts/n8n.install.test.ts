/**
 * scripts/n8n.sh's ensure_n8n (npm start's phase 3, and the e2e runs'): n8n is installed into a staging
 * folder and moved into place with its marker only when complete, so an install stopped at any point
 * (Ctrl-C, kill -9, a failure) leaves nothing a later run takes for done, and the next run installs it.
 * Local stand-ins replace the registry's n8n and sqlite3 (support/standInPackages.ts); real time, as the
 * installs are real processes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import {
	cacheEntries,
	ensureAndRun,
	installsN8n,
	reachedGate,
	runInstall,
	signalGroup,
	useInstallFolders,
} from './support/installRun';

const folders = useInstallFolders();

const installs = () => installsN8n(folders);

describe('ensure_n8n installs through a staging folder (real time)', () => {
	it('moves a complete install into place with its marker; a second run installs nothing', async () => {
		expect(await installs()).toContain('Installing n8n 9.9.9 for Node 24');
		const again = runInstall(folders.cache, folders.standIns, ensureAndRun);
		expect(await again.ended).toBe(0);
		expect(again.output()).not.toContain('Installing');
		expect(again.output()).toContain(folders.standIns.n8nVersion);
	});

	it('killed outright (kill -9) while npm resolves: nothing in place, the next run installs', async () => {
		// npm reads a local tarball's manifest while it resolves the tree: a FIFO holds it there.
		const fifo = join(folders.folder, 'held.tgz');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const held = {
			...folders.standIns,
			n8nDependencies: JSON.stringify({
				...(JSON.parse(folders.standIns.n8nDependencies) as object),
				held: `file:${fifo}`,
			}),
		};
		const run = runInstall(folders.cache, held, ensureAndRun);
		const writer = await open(fifo, 'w');
		signalGroup(run, 'SIGKILL');
		await run.ended;
		await writer.close();
		expect(cacheEntries(folders.cache)).toEqual(['.install.lock', 'n8n-9.9.9.staging']);
		expect(await installs()).toContain('Removing what an unfinished install of n8n 9.9.9 left');
	});

	it('killed outright while the sqlite3 binding builds: nothing in place, the next run installs', async () => {
		const run = runInstall(folders.cache, folders.standIns, ensureAndRun, { gated: true });
		await reachedGate(folders.standIns, 'sqlite3', run);
		expect(existsSync(join(folders.cache, 'n8n-9.9.9.staging', 'node_modules', 'n8n'))).toBe(true);
		signalGroup(run, 'SIGKILL');
		await run.ended;
		expect(cacheEntries(folders.cache)).toEqual(['.install.lock', 'n8n-9.9.9.staging']);
		writeFileSync(join(folders.standIns.gates, 'sqlite3.open'), '');
		await installs();
	});

	it("stopped by Ctrl-C during npm start's logged install: it says so and removes the staging folder", async () => {
		const log = join(folders.folder, 'npm-start.log');
		const run = runInstall(folders.cache, folders.standIns, ensureAndRun, {
			gated: true,
			env: { EMBROIDERY_INSTALL_LOG: log },
		});
		await reachedGate(folders.standIns, 'sqlite3', run);
		signalGroup(run, 'SIGINT');
		expect(await run.ended).not.toBe(0);
		expect(run.output()).toContain(
			'n8n 9.9.9 was not installed (stopped by Ctrl-C); nothing was put in place, the next run installs it afresh.',
		);
		expect(cacheEntries(folders.cache)).toEqual(['.install.lock']);
		writeFileSync(join(folders.standIns.gates, 'sqlite3.open'), '');
		await installs();
	});

	it("builds the sqlite3 binding once: another n8n's install uses it when its Node loads it", async () => {
		await installs();
		const run = runInstall(
			folders.cache,
			folders.standIns,
			'ensure_n8n 9.9.8 24; "$N8N_NODE_BIN" "$N8N_BIN"',
			{
				gated: true,
			},
		);
		expect(await run.ended).toBe(0);
		expect(run.output()).toMatch(
			/n8n's sqlite3 binding: the build in \S+sqlite3-binding-5\.1\.7-stand-in loads/,
		);
		// The build script, gated, would have stopped at its gate.
		expect(existsSync(join(folders.standIns.gates, 'sqlite3.reached'))).toBe(false);
		const binding = join(
			folders.cache,
			'n8n-9.9.8',
			'node_modules/sqlite3/build/Release/node_sqlite3.node',
		);
		expect(readFileSync(binding, 'utf8')).toBe('stand-in binding');
	});

	it('builds the sqlite3 binding when the one kept does not load', async () => {
		const kept = join(folders.cache, 'sqlite3-binding-5.1.7-stand-in', 'node_sqlite3.node');
		mkdirSync(dirname(kept), { recursive: true });
		writeFileSync(kept, 'built for another machine');
		const output = await installs();
		expect(output).not.toContain("n8n's sqlite3 binding: the build in");
		const binding = join(
			folders.cache,
			'n8n-9.9.9',
			'node_modules/sqlite3/build/Release/node_sqlite3.node',
		);
		expect(readFileSync(binding, 'utf8')).toBe('stand-in binding');
		// The new build is kept in its place.
		expect(readFileSync(kept, 'utf8')).toBe('stand-in binding');
	});

	it('a failed install puts nothing in place and says what failed', async () => {
		const broken = {
			...folders.standIns,
			n8nDependencies: JSON.stringify({ n8n: `file:${join(folders.folder, 'missing.tgz')}` }),
		};
		const run = runInstall(folders.cache, broken, ensureAndRun);
		expect(await run.ended).not.toBe(0);
		expect(run.output()).toContain('n8n 9.9.9 was not installed');
		expect(cacheEntries(folders.cache)).toEqual(['.install.lock']);
	});
});
