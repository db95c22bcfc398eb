/**
 * `npm run sign-in-link` (scripts/sign-in-link.ts): a fresh sign-in link from a running sandbox at any
 * time, no restart, through the control API the sandbox records in its data folder (sandbox/controlAccess.ts).
 * The sandbox here is sandbox/cli.ts as a process, as npm start's is one in its own: on Node with tsx as its
 * loader, since tsx's CLI gives its child 30 ms to claim a SIGTERM and on a loaded machine killed the sandbox
 * before it removed its record (test/sandbox/cli.test.ts starts it the same way).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { eventually } from '../support/realTime';
import {
	alive,
	repositoryRoot,
	spawnSandbox,
	type SandboxProcess,
} from '../support/sandboxProcess';

jest.setTimeout(120_000);

const tsx = join(repositoryRoot, 'node_modules/tsx/dist/cli.mjs');

function signInLink(dataDir: string): { status: number | null; output: string } {
	const run = spawnSync(process.execPath, [tsx, 'scripts/sign-in-link.ts', '--data', dataDir], {
		cwd: repositoryRoot,
		encoding: 'utf8',
	});
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Opens a sign-in link as a person does: the page (which uses nothing), then its button's POST. */
async function opens(url: string): Promise<[number, string | null]> {
	const page = await fetch(url, { redirect: 'manual' });
	if (page.status !== 200) return [page.status, page.headers.get('location')];
	const response = await fetch(url, { method: 'POST', redirect: 'manual' });
	return [response.status, response.headers.get('location')];
}

describe('npm run sign-in-link', () => {
	let dataDir: string;
	let sandbox: SandboxProcess | undefined;

	beforeEach(() => {
		dataDir = mkdtempSync(join(tmpdir(), 'sign-in-link-'));
	});

	afterEach(async () => {
		if (sandbox && sandbox.child.exitCode === null && sandbox.child.signalCode === null) {
			const exited = stopped(sandbox);
			sandbox.child.kill('SIGTERM');
			await exited;
		}
		sandbox = undefined;
		rmSync(dataDir, { recursive: true, force: true });
	});

	const stopped = ({ child }: SandboxProcess) =>
		new Promise((resolve) => child.once('exit', resolve));

	/** The sandbox's process, as its record names it. */
	const recordedPid = () =>
		(JSON.parse(readFileSync(join(dataDir, 'control.json'), 'utf8')) as { pid: number }).pid;

	const startSandbox = async () =>
		(sandbox = await spawnSandbox([
			'--import',
			'tsx',
			'sandbox/cli.ts',
			'--port',
			'0',
			'--data',
			dataDir,
			'--workers',
			'1',
		]));

	it('prints a fresh working link each time from the running sandbox, the first one still valid', async () => {
		const { printed } = await startSandbox();
		const mode = statSync(join(dataDir, 'control.json')).mode & 0o777;
		expect(mode.toString(8)).toBe('600');
		const first = signInLink(dataDir);
		const second = signInLink(dataDir);
		const link =
			/^(http:\/\/127\.0\.0\.1:\d+\/account\/sign-in\/\S+)\n  a one-time sign-in link .+valid until \S+Z\n$/;
		expect(first).toEqual({ status: 0, output: expect.stringMatching(link) as string });
		expect(second).toEqual({ status: 0, output: expect.stringMatching(link) as string });
		const urls = [first, second].map(({ output }) => link.exec(output)![1]);
		expect(new Set([...urls, printed.signInLink]).size).toBe(3);
		for (const url of [...urls, printed.signInLink])
			expect(await opens(url)).toEqual([303, '/account/keys']);
		expect((await opens(urls[0]))[0]).toBe(410);
	});

	it('says how to start one when no sandbox runs with the data folder, and after the sandbox stopped', async () => {
		const none = signInLink(dataDir);
		expect(none.status).toBe(1);
		expect(none.output).toContain(`No sandbox is running with the data folder ${dataDir}`);
		expect(none.output).toContain('Start it with npm start');

		const running = await startSandbox();
		const pid = recordedPid();
		const exited = stopped(running);
		running.child.kill('SIGTERM');
		await exited;
		expect(await eventually(() => !alive(pid), 30_000)).toBe(true);
		expect(existsSync(join(dataDir, 'control.json'))).toBe(false);
		expect(signInLink(dataDir).output).toContain('No sandbox is running with the data folder');
	});

	it('says the sandbox does not answer when the one that wrote the record was killed outright', async () => {
		const running = await startSandbox();
		const exited = stopped(running);
		const pid = recordedPid();
		process.kill(pid, 'SIGKILL');
		await exited;
		const stale = signInLink(dataDir);
		expect(stale.status).toBe(1);
		expect(stale.output).toMatch(
			new RegExp(
				`The sandbox at http://127\\.0\\.0\\.1:\\d+ does not answer \\(ECONNREFUSED\\); process ${pid} ran it`,
			),
		);
	});
});
