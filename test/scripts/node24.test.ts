/**
 * scripts/node24.sh: a Node line installs through a staging folder like n8n does (the stand-in `node`
 * package's preinstall script puts this test's Node binary in place, as the registry's fetches the
 * platform's), and the progress line of npm start's installs moves while npm resolves, before any
 * package is in place. Real time: the installs are real npm runs.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { repositoryRoot } from '../support/sandboxProcess';
import {
	cacheEntries,
	killLeftOverRuns,
	reachedGate,
	runInstall,
	signalGroup,
} from './support/installRun';
import { makeStandIns, type StandIns } from './support/standInPackages';

let folder: string;
let cache: string;
let standIns: StandIns;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'embroidery-node-line-'));
	cache = join(folder, 'cache');
	standIns = makeStandIns(folder);
});

afterEach(() => {
	killLeftOverRuns();
	rmSync(folder, { recursive: true, force: true });
});

/** Bash with scripts/node24.sh sourced: its output (stdout and stderr) and exit code. */
function bash(
	script: string,
	env: Record<string, string> = {},
): { status: number | null; output: string } {
	const run = spawnSync('bash', ['-c', `. scripts/node24.sh; set -euo pipefail; ${script}`], {
		cwd: repositoryRoot,
		encoding: 'utf8',
		env: { ...process.env, EMBROIDERY_CACHE_DIR: cache, ...env },
	});
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// ensure_node_line returns at once when the Node on PATH is of the line (this test's is 24): the
// install behind it is driven directly, as ensure_node_line calls it.
const installLine24 =
	'with_install_lock "Node 24" install_node_line 24 "$(node_install_dir 24)"; ' +
	'node_line_major "$(node_install_dir 24)"';

describe('a Node line installs through a staging folder (real time)', () => {
	jest.setTimeout(120_000);

	it('killed outright while its preinstall fetches the binary: nothing in place, the next run installs', async () => {
		const run = runInstall(cache, standIns, installLine24, { gated: true });
		await reachedGate(standIns, 'node', run);
		signalGroup(run, 'SIGKILL');
		await run.ended;
		expect(cacheEntries(cache)).toEqual(['.install.lock', 'node24.staging']);

		const next = runInstall(cache, standIns, installLine24);
		expect({ code: await next.ended, output: next.output() }).toEqual({
			code: 0,
			output: expect.stringMatching(
				/Installing Node 24 into .+node24 \(once, under a minute\)[^]*\n24\n$/,
			) as string,
		});
		expect(cacheEntries(cache)).toEqual(['.install.lock', 'node24']);
		expect(existsSync(join(cache, 'node24', '.embroidery-install-complete'))).toBe(true);
	});

	it('keeps a complete install of the earlier scripts (no marker) without installing again', async () => {
		const first = runInstall(cache, standIns, installLine24);
		expect(await first.ended).toBe(0);
		rmSync(join(cache, 'node24', '.embroidery-install-complete'));
		const again = runInstall(cache, standIns, installLine24);
		expect(await again.ended).toBe(0);
		expect(again.output()).not.toContain('Installing');
		expect(existsSync(join(cache, 'node24', '.embroidery-install-complete'))).toBe(true);
	});
});

describe("the progress line of npm start's installs", () => {
	const log = () => join(folder, 'npm-start.log');
	const progress = (kind: string) =>
		bash(`install_progress "${kind}" 1`, { EMBROIDERY_INSTALL_LOG: log() }).output;

	it('counts the packages npm looked up while none is in place yet, then the packages in place', () => {
		const modules = join(folder, 'node_modules');
		writeFileSync(log(), '=== n8n 2.41.1: npm install\n');
		expect(progress(`packages:${modules}`)).toBe('resolving, 0 packages looked up, \n');
		for (const name of ['n8n', 'n8n-core', '@n8n/config'])
			appendFileSync(
				log(),
				`npm http fetch GET 200 https://registry.npmjs.org/${name} 31ms (cache hit)\n`,
			);
		appendFileSync(
			log(),
			'npm http fetch GET 200 https://registry.npmjs.org/n8n/-/n8n-2.41.1.tgz 9ms\n',
		);
		expect(progress(`packages:${modules}`)).toBe('resolving, 3 packages looked up, \n');
		for (const name of ['n8n', '@n8n/config']) {
			mkdirSync(join(modules, name), { recursive: true });
			writeFileSync(join(modules, name, 'package.json'), '{}');
		}
		expect(progress(`packages:${modules}`)).toBe('3 packages looked up, 2 in place, \n');
	});

	it("says a Node line's download in megabytes, not in packages", () => {
		writeFileSync(log(), '');
		mkdirSync(join(folder, 'node24.staging'));
		writeFileSync(join(folder, 'node24.staging', 'node'), Buffer.alloc(3 * 1024 * 1024));
		expect(progress(`size:${join(folder, 'node24.staging')}`)).toBe('3 MB downloaded, \n');
	});

	it('gives the time in minutes past the first one', () => {
		expect(bash('duration 40; duration 185; duration 60').output).toBe(
			'40 s\n3 min 5 s\n1 min 0 s\n',
		);
	});
});
