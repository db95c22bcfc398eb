/**
 * `npm start` as a user runs it, from its own terminal: the real script, the real sandbox and n8n 2.41.1.
 * Ctrl-C is a SIGINT to the terminal's foreground process group (npm and all below it, n8n's own group
 * aside); after it nothing `npm start` started may be left, and its ports must be free.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { demoOwner } from '../../scripts/demo';
import { exampleIds } from '../../scripts/examples';
import {
	fetchN8n,
	freePort,
	LocalN8n,
	sleep,
	testedN8nVersions,
	type N8nPidFile,
} from '../../scripts/n8n';
import { eventually } from '../support/realTime';
import { descendants, repositoryRoot } from '../support/sandboxProcess';

interface Started {
	npm: ChildProcess;
	output: () => string;
	/** Every process below npm, each with its start time (a pid used again later is another process). */
	processes: Array<{ pid: number; startTime: string }>;
	ports: number[];
	n8nPid: number;
}

function startTime(pid: number): string | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// State is the first field after the name; a zombie has ended.
		return fields[0] === 'Z' ? undefined : fields[19];
	} catch {
		return undefined;
	}
}

/** The processes of `started` that still run. */
function leftOver(started: Started): number[] {
	return started.processes
		.filter(({ pid, startTime: began }) => startTime(pid) === began)
		.map(({ pid }) => pid);
}

async function portIsFree(port: number): Promise<boolean> {
	return (await freePort(port)) === port;
}

/** How long one npm start may take to get ready; each test below allows for its starts. */
const startLimitMs = 600_000;

// npm start runs n8n 2.41.1 whichever environment runs this folder: once is enough.
const inEveryEnvironmentOnce = process.env.EMBROIDERY_E2E_ENV === 'n8n1' ? describe.skip : describe;

inEveryEnvironmentOnce('npm start and Ctrl-C (n8n 2.41.1, real time)', () => {
	let localDir: string;
	let port: number;
	const running: Started[] = [];

	/** Runs `npm start -- --port=<port>` in a process group of its own, as a terminal runs a command. */
	function npmStart(): { npm: ChildProcess; output: () => string } {
		const { NODE_ENV: _jest, ...env } = process.env;
		let output = '';
		const npm = spawn('npm', ['start', '--', `--port=${port}`], {
			cwd: repositoryRoot,
			env: { ...env, EMBROIDERY_LOCAL_DIR: localDir, EMBROIDERY_BUILT: '1' },
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		npm.stdout!.on('data', (chunk) => (output += chunk));
		npm.stderr!.on('data', (chunk) => (output += chunk));
		return { npm, output: () => output };
	}

	/**
	 * Runs npm start until it says it is ready. The limit is generous: npm test runs this file beside jest, and
	 * at load average 25 to 33 the first start's imports alone took 150 s. One that never gets ready is killed,
	 * so that the next test does not find it running.
	 */
	async function startReady(): Promise<Started> {
		const { npm, output } = npmStart();
		const ready = await eventually(
			() => output().includes('Press Ctrl-C to stop.') || npm.exitCode !== null,
			startLimitMs,
		);
		if (!ready || npm.exitCode !== null) {
			const how = ready
				? `it exited with code ${npm.exitCode}`
				: `not ready in ${startLimitMs / 1000} s`;
			const n8nPidFile = join(localDir, 'n8n', 'n8n.pid');
			const groups = [npm.pid!];
			if (existsSync(n8nPidFile))
				groups.push((JSON.parse(readFileSync(n8nPidFile, 'utf8')) as { pid: number }).pid);
			for (const group of groups) {
				try {
					process.kill(-group, 'SIGKILL');
				} catch {
					// Ended already.
				}
			}
			// From the last phase it began on: a summary of failed tests shows only the start of a message.
			const text = output();
			const lastPhase = [...text.matchAll(/^\[\d\/7\] /gm)].at(-1)?.index ?? 0;
			throw new Error(
				`npm start did not get ready (${how}); from its last phase on:\n${text.slice(lastPhase)}`,
			);
		}
		const portOf = (label: string) =>
			Number(new RegExp(`${label}:\\s+http://127\\.0\\.0\\.1:(\\d+)`).exec(output())?.[1]);
		const recorded = JSON.parse(readFileSync(join(localDir, 'n8n', 'n8n.pid'), 'utf8')) as {
			pid: number;
		};
		const processes = descendants(npm.pid!).flatMap((pid) => {
			const began = startTime(pid);
			return began ? [{ pid, startTime: began }] : [];
		});
		const started = {
			npm,
			output,
			processes,
			ports: [
				portOf('Editor'),
				portOf('Sandbox'),
				Number(/127\.0\.0\.1:(\d+)\/logo\.svg/.exec(output())?.[1]),
			],
			n8nPid: recorded.pid,
		};
		running.push(started);
		return started;
	}

	/** What a terminal's Ctrl-C does: SIGINT to the whole foreground process group. */
	const interrupt = (started: Started) => process.kill(-started.npm.pid!, 'SIGINT');

	async function expectAllStopped(started: Started): Promise<void> {
		const exited = await eventually(
			() => started.npm.exitCode !== null || started.npm.signalCode !== null,
			60_000,
		);
		expect({ exited, output: exited ? 'ended' : started.output() }).toEqual({
			exited: true,
			output: 'ended',
		});
		await eventually(() => leftOver(started).length === 0, 30_000);
		const left = leftOver(started).map(
			(pid) => `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`,
		);
		expect(left).toEqual([]);
		for (const taken of started.ports)
			expect({ port: taken, free: await portIsFree(taken) }).toEqual({ port: taken, free: true });
		expect(started.output()).toContain('Stopped.');
		expect(existsSync(join(localDir, 'n8n', 'n8n.pid'))).toBe(false);
	}

	beforeAll(async () => {
		localDir = await mkdtemp(join(tmpdir(), 'embroidery-start-'));
		port = await freePort();
	});

	afterAll(async () => {
		// A failed test must not leave n8n behind either.
		for (const started of running) {
			for (const group of [started.npm.pid!, started.n8nPid]) {
				try {
					process.kill(-group, 'SIGKILL');
				} catch {
					// Ended already.
				}
			}
		}
		await rm(localDir, { recursive: true, force: true });
	});

	it(
		'stops everything when Ctrl-C comes twice in quick succession',
		async () => {
			const started = await startReady();
			interrupt(started);
			await sleep(150);
			interrupt(started);
			await expectAllStopped(started);
		},
		startLimitMs + 300_000,
	);

	it(
		'refuses to run beside a running npm start, stops what a killed one left, shows its phases; Ctrl-C',
		async () => {
			const first = await startReady();
			const second = npmStart();
			await eventually(() => second.npm.exitCode !== null, 60_000);
			expect(second.npm.exitCode).toBe(1);
			expect(second.output()).toMatch(/npm start is already running with .+ Stop it first/);

			// A terminal that kills npm start outright (SIGKILL, no chance to clean up) leaves n8n running.
			process.kill(-first.npm.pid!, 'SIGKILL');
			await eventually(() => first.npm.exitCode !== null || first.npm.signalCode !== null, 10_000);
			expect(startTime(first.n8nPid)).toBeDefined();

			const next = await startReady();
			expect(next.output()).toContain(
				`An earlier npm start left its n8n running (process ${first.n8nPid}, port ${port}`,
			);
			expect(next.output()).toContain(`Editor:      http://127.0.0.1:${port}`);
			expect(startTime(first.n8nPid)).toBeUndefined();
			const health = await fetchN8n(`http://127.0.0.1:${port}/healthz/readiness`);
			expect(health.status).toBe(200);

			// The examples went in again over n8n's REST API, into the n8n the killed start had set up: still one demo
			// credential, and the shop order and the job trigger published.
			const n8n = await LocalN8n.attach(
				{ userFolder: join(localDir, 'n8n') },
				JSON.parse(readFileSync(join(localDir, 'n8n', 'n8n.pid'), 'utf8')) as N8nPidFile,
			);
			await n8n.login(demoOwner.email, demoOwner.password);
			const credentials = await n8n.rest<Array<{ name: string }>>('GET', '/rest/credentials');
			expect(credentials.map(({ name }) => name)).toEqual(['Embroidery sandbox (demo account)']);
			const workflows = await n8n.rest<Array<{ id: string; active: boolean }>>(
				'GET',
				'/rest/workflows',
			);
			expect(
				workflows
					.filter(({ active }) => active)
					.map(({ id }) => id)
					.sort(),
			).toEqual([exampleIds.finishedJobs, exampleIds.shopOrder].sort());

			// A fresh sign-in link while it runs (the banner's is one-time); the admin token stays in the data folder.
			const { adminToken } = JSON.parse(
				readFileSync(join(localDir, 'sandbox', 'control.json'), 'utf8'),
			) as { adminToken: string };
			expect(next.output()).not.toContain(adminToken);
			expect(next.output()).toContain('a new one at any time: npm run sign-in-link');
			const { NODE_ENV: _jest, ...env } = process.env;
			const fresh = spawnSync('npm', ['run', '--silent', 'sign-in-link'], {
				cwd: repositoryRoot,
				env: { ...env, EMBROIDERY_LOCAL_DIR: localDir },
				encoding: 'utf8',
			});
			const link = /^http:\/\/127\.0\.0\.1:\d+\/account\/sign-in\/\S+$/m.exec(fresh.stdout)?.[0];
			expect({ status: fresh.status, link: Boolean(link) }).toEqual({ status: 0, link: true });
			// Opening the link shows its button and uses nothing; the button's POST signs in.
			expect((await fetch(link!, { redirect: 'manual' })).status).toBe(200);
			const signIn = await fetch(link!, { method: 'POST', redirect: 'manual' });
			expect([signIn.status, signIn.headers.get('location')]).toEqual([303, '/account/keys']);
			interrupt(next);
			await expectAllStopped(next);
			const output = next.output();
			for (const number of [1, 2, 3, 4, 5, 6, 7])
				expect(output).toMatch(new RegExp(`\\[${number}/7\\] .+\\.\\.\\.\\n`));
			expect(output.match(/^\s+done in [\d.]+ s$/gm)).toHaveLength(7);
			// The real cached n8n is recognised as complete (scripts/n8n.sh's marker): nothing installs.
			const { current } = testedN8nVersions();
			expect(output).toContain(`[3/7] n8n ${current} (in place in `);
			expect(output).toContain(`Editor:      http://127.0.0.1:${port}`);
			expect(output).toContain(`http://127.0.0.1:${port}/workflow/embroideryExConv`);
			expect(output).toContain(`n8n may read and write only ${join(localDir, 'files')}`);
			expect(output).toContain('duplicate an example');
			expect(output).toContain(join(localDir, 'npm-start.log'));
			expect(output).not.toMatch(/ERESOLVE|npm warn/i);
		},
		2 * startLimitMs + 300_000,
	);
});
