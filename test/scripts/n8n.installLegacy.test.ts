/**
 * scripts/n8n.sh's ensure_n8n and a folder installed by the scripts before installs went through a staging
 * folder (no marker): kept when complete, installed afresh when an install was stopped in it. Local
 * stand-ins (support/standInPackages.ts); real time, as the installs are real processes.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	ensureAndRun,
	installMarker,
	installsN8n,
	runInstall,
	useInstallFolders,
} from './support/installRun';

const folders = useInstallFolders();

const installs = () => installsN8n(folders);

describe('ensure_n8n and an install made before the staging folder (real time)', () => {
	/** An install as the earlier scripts left it: in place, no marker. */
	async function oldLayoutInstall(): Promise<string> {
		await installs();
		const dir = join(folders.cache, 'n8n-9.9.9');
		rmSync(join(dir, installMarker));
		return dir;
	}

	it('keeps a complete one, adding the marker, without installing again', async () => {
		const dir = await oldLayoutInstall();
		const run = runInstall(folders.cache, folders.standIns, ensureAndRun);
		expect(await run.ended).toBe(0);
		expect(run.output()).toContain(
			'installed before installs went through a staging folder, is complete: kept.',
		);
		expect(run.output()).not.toContain('Installing');
		expect(existsSync(join(dir, installMarker))).toBe(true);
	});

	it('installs afresh over one an interrupted extraction left (a package folder without package.json)', async () => {
		const dir = await oldLayoutInstall();
		// What issue 39 found: @smithy/core extracted without its package.json.
		mkdirSync(join(dir, 'node_modules', '@smithy', 'core', 'dist-cjs'), { recursive: true });
		writeFileSync(join(dir, 'node_modules', '@smithy', 'core', 'dist-cjs', 'index.js'), '');
		const run = runInstall(folders.cache, folders.standIns, ensureAndRun);
		expect(await run.ended).toBe(0);
		expect(run.output()).toContain('Removing what an unfinished install of n8n 9.9.9 left');
		expect(existsSync(join(dir, 'node_modules', '@smithy'))).toBe(false);
		expect(existsSync(join(dir, installMarker))).toBe(true);
	});

	it('installs afresh over one whose sqlite3 binding was never built', async () => {
		const dir = await oldLayoutInstall();
		rmSync(join(dir, 'node_modules', 'sqlite3', 'build'), { recursive: true });
		const run = runInstall(folders.cache, folders.standIns, ensureAndRun);
		expect(await run.ended).toBe(0);
		expect(run.output()).toContain('Installing n8n 9.9.9');
		expect(existsSync(join(dir, 'node_modules', 'sqlite3', 'build', 'Release'))).toBe(true);
	});
});
