/**
 * scripts/n8n.sh's ensure_n8n under scripts/node24.sh's install lock: one install at a time per cache
 * folder, a second run waiting and saying for whom, a holder killed outright freeing it. Local stand-ins
 * (support/standInPackages.ts); real time, as the installs are real processes.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { eventually } from '../support/realTime';
import {
	ensureAndRun,
	installMarker,
	reachedGate,
	runInstall,
	signalGroup,
	useInstallFolders,
} from './support/installRun';

const folders = useInstallFolders();

describe('one install at a time per cache folder (real time)', () => {
	it('a second run waits for the first, says so, then finds n8n in place and installs nothing', async () => {
		const first = runInstall(folders.cache, folders.standIns, ensureAndRun, { gated: true });
		await reachedGate(folders.standIns, 'sqlite3', first);
		const second = runInstall(folders.cache, folders.standIns, ensureAndRun);
		const waiting =
			/Waiting for another install into .+ to finish \(process (\d+) installing n8n 9\.9\.9/;
		expect(await eventually(() => waiting.test(second.output()), 30_000)).toBe(true);
		expect(Number(waiting.exec(second.output())![1])).toBeGreaterThan(0);
		writeFileSync(join(folders.standIns.gates, 'sqlite3.open'), '');
		expect(await first.ended).toBe(0);
		expect(await second.ended).toBe(0);
		expect(second.output()).not.toContain('Installing n8n');
		expect(second.output()).toContain(folders.standIns.n8nVersion);
	});

	it('a holder killed outright frees the lock: the waiting run installs', async () => {
		const first = runInstall(folders.cache, folders.standIns, ensureAndRun, { gated: true });
		await reachedGate(folders.standIns, 'sqlite3', first);
		const second = runInstall(folders.cache, folders.standIns, ensureAndRun, { gated: true });
		expect(
			await eventually(() => second.output().includes('Waiting for another install'), 30_000),
		).toBe(true);
		signalGroup(first, 'SIGKILL');
		await first.ended;
		rmSync(join(folders.standIns.gates, 'sqlite3.reached'));
		await reachedGate(folders.standIns, 'sqlite3', second);
		writeFileSync(join(folders.standIns.gates, 'sqlite3.open'), '');
		expect(await second.ended).toBe(0);
		expect(second.output()).toContain('Removing what an unfinished install of n8n 9.9.9 left');
		expect(readFileSync(join(folders.cache, 'n8n-9.9.9', installMarker), 'utf8')).toMatch(
			/^\d{4}-/,
		);
	});
});
