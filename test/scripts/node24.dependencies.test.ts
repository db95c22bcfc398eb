/**
 * scripts/node24.sh's ensure_dependencies: node_modules is installed again only when it is missing or was
 * installed from another package-lock.json (its checksum, not a file's time, says so), and a node_modules that
 * links to another checkout's folder is never emptied by `npm ci`. The installs are real npm runs of a package
 * with no dependencies (nothing is fetched).
 */
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { repositoryRoot } from '../support/sandboxProcess';

let folder: string;
let project: string;

const manifest = { name: 'stand-in-project', version: '1.0.0', private: true };
const lockfile = {
	name: manifest.name,
	version: manifest.version,
	lockfileVersion: 3,
	requires: true,
	packages: { '': { name: manifest.name, version: manifest.version } },
};
const stampName = '.embroidery-lockfile-sha256';

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'embroidery-dependencies-'));
	project = join(folder, 'project');
	mkdirSync(project);
	writeFileSync(join(project, 'package.json'), JSON.stringify(manifest));
	writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lockfile));
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

function ensureDependencies(): { status: number | null; output: string } {
	const script = `. "${join(repositoryRoot, 'scripts/node24.sh')}"; set -euo pipefail; ensure_dependencies`;
	const run = spawnSync('bash', ['-c', script], { cwd: project, encoding: 'utf8' });
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A folder of installed modules as npm leaves it, its hidden lockfile an hour older than the project's. */
function installedModules(path: string): void {
	mkdirSync(join(path, 'kept-package'), { recursive: true });
	writeFileSync(join(path, 'kept-package', 'index.js'), 'module.exports = 1;\n');
	writeFileSync(join(path, '.package-lock.json'), JSON.stringify(lockfile));
	const hourAgo = new Date(Date.now() - 3_600_000);
	utimesSync(join(path, '.package-lock.json'), hourAgo, hourAgo);
}

function checksum(): string {
	const run = spawnSync('sha256sum', ['package-lock.json'], { cwd: project, encoding: 'utf8' });
	return run.stdout.split(' ')[0];
}

describe('ensure_dependencies', () => {
	it('refuses to install through a link to another checkout, whose modules stay as they are', () => {
		const shared = join(folder, 'shared-modules');
		installedModules(shared);
		symlinkSync(shared, join(project, 'node_modules'));
		// A fresh worktree: its lockfile is newer than the linked install.
		const { status, output } = ensureDependencies();
		expect(status).toBe(1);
		expect(output).toContain(`node_modules links to ${shared}`);
		expect(existsSync(join(shared, 'kept-package', 'index.js'))).toBe(true);
	});

	it('keeps an install whose checksum matches the lockfile, however new the lockfile is', () => {
		const modules = join(project, 'node_modules');
		installedModules(modules);
		writeFileSync(join(modules, stampName), `${checksum()}\n`);
		const { status, output } = ensureDependencies();
		expect(status).toBe(0);
		expect(output).not.toContain('Installing dependencies');
		expect(existsSync(join(modules, 'kept-package', 'index.js'))).toBe(true);
	});

	it('adopts an install from before the checksum when the lockfile is not newer', () => {
		const modules = join(project, 'node_modules');
		installedModules(modules);
		const hourAgo = new Date(Date.now() - 7_200_000);
		utimesSync(join(project, 'package-lock.json'), hourAgo, hourAgo);
		expect(ensureDependencies().status).toBe(0);
		expect(readFileSync(join(modules, stampName), 'utf8').trim()).toBe(checksum());
		expect(existsSync(join(modules, 'kept-package', 'index.js'))).toBe(true);
	});

	it('installs again when the checksum is of another lockfile, and records the new one', () => {
		const modules = join(project, 'node_modules');
		installedModules(modules);
		writeFileSync(join(modules, stampName), 'another-lockfile\n');
		const { status, output } = ensureDependencies();
		expect(status).toBe(0);
		expect(output).toContain('Installing dependencies');
		// npm ci starts from an empty node_modules.
		expect(existsSync(join(modules, 'kept-package'))).toBe(false);
		expect(readFileSync(join(modules, stampName), 'utf8').trim()).toBe(checksum());
	});
});
