/**
 * scripts/node24.sh's ensure_dependencies: node_modules is installed again only when it is missing or was
 * installed from another package-lock.json (its checksum, not a file's time, says so), and a node_modules that
 * links to another checkout's folder is never emptied. `npm ci` runs once per lockfile, into the cache folder,
 * and each checkout's node_modules is a copy of hard links to it. The installs are real npm runs of a package
 * with one dependency linked from a folder beside it (nothing is fetched, and npm writes its record of the tree,
 * `node_modules/.package-lock.json`); the cache folder is the test's.
 */
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { repositoryRoot } from '../support/sandboxProcess';

let folder: string;
let project: string;
let cache: string;

const manifest = {
	name: 'stand-in-project',
	version: '1.0.0',
	private: true,
	dependencies: { 'stand-in-dependency': 'file:../stand-in-dependency' },
};
const lockfile = {
	name: manifest.name,
	version: manifest.version,
	lockfileVersion: 3,
	requires: true,
	packages: {
		'': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies },
		'../stand-in-dependency': { version: '1.0.0' },
		'node_modules/stand-in-dependency': { resolved: '../stand-in-dependency', link: true },
	},
};
const stampName = '.embroidery-lockfile-sha256';

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'embroidery-dependencies-'));
	project = join(folder, 'project');
	cache = join(folder, 'cache');
	mkdirSync(project);
	writeFileSync(join(project, 'package.json'), JSON.stringify(manifest));
	writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lockfile));
	mkdirSync(join(folder, 'stand-in-dependency'));
	writeFileSync(
		join(folder, 'stand-in-dependency', 'package.json'),
		JSON.stringify({ name: 'stand-in-dependency', version: '1.0.0' }),
	);
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

function ensureDependencies(cwd = project): { status: number | null; output: string } {
	const script = `. "${join(repositoryRoot, 'scripts/node24.sh')}"; set -euo pipefail; ensure_dependencies`;
	const run = spawnSync('bash', ['-c', script], {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, EMBROIDERY_CACHE_DIR: cache },
	});
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

	it('runs npm ci once per lockfile into the cache, and gives each checkout a copy of hard links', () => {
		const first = ensureDependencies();
		expect(first.status).toBe(0);
		expect(first.output).toContain('Installing dependencies');
		const installed = readdirSync(cache).filter((name) => name.startsWith('dependencies-'));
		expect(installed).toEqual([`dependencies-${checksum().slice(0, 16)}`]);
		const cached = join(cache, installed[0], 'node_modules', '.package-lock.json');

		// A second clone of the same lockfile.
		const clone = join(folder, 'clone');
		mkdirSync(clone);
		for (const file of ['package.json', 'package-lock.json'])
			writeFileSync(join(clone, file), readFileSync(join(project, file)));
		const second = ensureDependencies(clone);
		expect(second.status).toBe(0);
		expect(second.output).not.toContain('Installing dependencies');
		expect(second.output).toContain('hard links');
		const copied = join(clone, 'node_modules', '.package-lock.json');
		expect(statSync(copied).ino).toBe(statSync(cached).ino);
		expect(readFileSync(join(clone, 'node_modules', stampName), 'utf8').trim()).toBe(checksum());
		// The stamp is the checkout's own: the cache's folder has none.
		expect(existsSync(join(cache, installed[0], 'node_modules', stampName))).toBe(false);
	});

	it("keeps the folders of the three lockfiles used last, and another install's staging folder", () => {
		const older = ['dependencies-0000000000000001', 'dependencies-0000000000000002'];
		const oldest = 'dependencies-0000000000000003';
		const staging = 'dependencies-0000000000000004.staging';
		for (const [index, name] of [...older, oldest, staging].entries()) {
			mkdirSync(join(cache, name, 'node_modules'), { recursive: true });
			const daysAgo = new Date(Date.now() - (index + 1) * 86_400_000);
			utimesSync(join(cache, name), daysAgo, daysAgo);
		}
		// The staging folder is the oldest of all, and still kept.
		utimesSync(join(cache, staging), new Date(0), new Date(0));
		expect(ensureDependencies().status).toBe(0);
		expect(readdirSync(cache).sort()).toEqual(
			[`dependencies-${checksum().slice(0, 16)}`, ...older, staging, '.install.lock'].sort(),
		);
	});
});
