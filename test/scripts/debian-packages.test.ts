/**
 * scripts/debian-packages.sh: who may install, what each refusal says, and the apt-get commands run. apt-get is a
 * stand-in first on PATH that records its arguments: a test must not install packages on the machine it runs on.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { repositoryRoot } from '../support/sandboxProcess';

const script = readFileSync(join(repositoryRoot, 'scripts', 'debian-packages.sh'), 'utf8');
const isRoot = process.getuid?.() === 0;

let folder: string;
let calls: string;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'embroidery-debian-'));
	calls = join(folder, 'calls');
	// Records each call with the frontend it was given; `install` fails when APT_FAILS is set.
	standIn(
		'apt-get',
		`echo "$DEBIAN_FRONTEND $*" >> ${calls}\n` +
			'[ "$1" = install ] && [ -n "${APT_FAILS:-}" ] && exit 100\nexit 0',
	);
	// Not root: a sudo that lets everything through, so the install path runs here too.
	if (!isRoot) standIn('sudo', '[ "$1" = -n ] && shift\nexec "$@"');
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

function standIn(name: string, body: string): void {
	const file = join(folder, name);
	writeFileSync(file, `#!/bin/sh\n${body}\n`);
	chmodSync(file, 0o755);
}

/** `debian_install` with these arguments: its status and what it printed. */
function install(
	args: string,
	env: Record<string, string> = {},
	asUser: string[] = [],
): { status: number | null; output: string } {
	const run = spawnSync(...bash(`${script}\ndebian_install ${args}`, asUser), {
		encoding: 'utf8',
		env: { ...machineEnv, PATH: `${folder}:${process.env.PATH}`, ...env },
	});
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function bash(source: string, asUser: string[]): [string, string[]] {
	return asUser.length
		? [asUser[0], [...asUser.slice(1), 'bash', '-c', source]]
		: ['bash', ['-c', source]];
}

/** This process's environment without a DEBIAN_FRONTEND of its own: the script is to set it. */
const machineEnv = Object.fromEntries(
	Object.entries(process.env).filter(([name]) => name !== 'DEBIAN_FRONTEND'),
);

const aptCalls = () => (existsSync(calls) ? readFileSync(calls, 'utf8') : '');

describe("Debian's packages installed when missing", () => {
	it('installs them, after a line saying who needs them: apt-get update, then a quiet install', () => {
		const result = install('"Queue mode needs" postgresql redis-server');
		expect(result).toEqual({
			status: 0,
			output:
				"Queue mode needs Debian's packages postgresql redis-server, missing here: installing system-wide " +
				`(${isRoot ? '' : 'sudo '}apt-get install postgresql redis-server; ` +
				'EMBROIDERY_NO_SYSTEM_PACKAGES=1 skips it)...\n',
		});
		expect(aptCalls()).toBe(
			' update\nnoninteractive install -y --no-install-recommends postgresql redis-server\n',
		);
	});

	it('never installs with EMBROIDERY_NO_SYSTEM_PACKAGES=1, and says how to by hand', () => {
		const result = install('"The browser tests need" chromium', {
			EMBROIDERY_NO_SYSTEM_PACKAGES: '1',
		});
		expect(result).toEqual({
			status: 3,
			output:
				"The browser tests need Debian's package chromium, missing here, and EMBROIDERY_NO_SYSTEM_PACKAGES=1 " +
				'keeps them from being installed: run `apt-get install chromium` as root.\n',
		});
		expect(aptCalls()).toBe('');
	});

	it('refuses without root or a sudo that asks no password', () => {
		// As root, the test runs it as nobody (whom no sudoers file names); otherwise as this user, without the
		// stand-in sudo.
		const asUser = isRoot ? ['runuser', '-u', 'nobody', '--'] : [];
		if (!isRoot) rmSync(join(folder, 'sudo'));
		const result = install(
			'"The YARA check needs" yara',
			{ PATH: '/usr/sbin:/usr/bin:/bin' },
			asUser,
		);
		expect(result).toEqual({
			status: 4,
			output:
				"The YARA check needs Debian's package yara, missing here, and installing needs root or sudo: " +
				'run `sudo apt-get install yara`.\n',
		});
	});

	it('fails with status 1, naming the packages, when apt-get does', () => {
		const result = install('"npm run bench:testCpu needs" acct', { APT_FAILS: '1' });
		expect(result.status).toBe(1);
		expect(result.output).toMatch(
			/installing system-wide .*\nInstalling Debian's package acct failed: apt-get's output is above\.\n$/,
		);
		expect(aptCalls()).toBe(' update\nnoninteractive install -y --no-install-recommends acct\n');
	});
});
