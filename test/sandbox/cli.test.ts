import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { longDst } from '../../bench/fuzz-inputs';
import { Api } from './support/apiClient';
import type { RunningSandbox } from '../support/sandbox';
import { alive, descendants, repositoryRoot, spawnSandbox } from '../support/sandboxProcess';

// Generous: the suite shares two cores with other heavy runs (builds, n8n, benches). Four sandboxes started
// one after another (the last test) took past 120 s on 2 cores at load average 20-31 (issue 42).
jest.setTimeout(360_000);

/**
 * Starts sandbox/cli.ts on Node with tsx as its loader (`node --import tsx`), in one process, as `npm run
 * sandbox` does, and reads what it prints. tsx's own CLI would be a second process that passes SIGTERM and
 * SIGINT on and waits only 30 ms for the child to say it handles them: on a loaded machine (issue 42) it then
 * killed the sandbox mid-close (exit 143).
 */
const startCli = (args: string[]) => spawnSandbox(['--import', 'tsx', 'sandbox/cli.ts', ...args]);

function exitCode(child: ChildProcess): Promise<number | null> {
	return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Resolves once the process has printed `text` on its standard output (counted from now). */
function prints(child: ChildProcess, text: string): Promise<void> {
	let output = '';
	return new Promise((resolve) => {
		const read = (chunk: Buffer) => {
			output += chunk;
			if (!output.includes(text)) return;
			child.stdout!.off('data', read);
			resolve();
		};
		child.stdout!.on('data', read);
	});
}

describe('npm run sandbox (sandbox/cli.ts)', () => {
	it('prints a working base URL, demo key and admin token, runs a job, and stops cleanly on SIGTERM', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
		const { child, printed } = await startCli(['--port', '0', '--data', dataDir, '--workers', '1']);
		try {
			expect(printed.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
			const origin = printed.baseUrl.replace(/\/api\/v1$/, '');
			const sandbox = { baseUrl: printed.baseUrl, origin } as RunningSandbox;
			const api = new Api(sandbox, printed.demoKey);
			const usage = (await api.get('/usage')).body.freeUsage;
			expect(usage.creditBalance).toBe(100);
			const { body } = await api.convert('Star.DST', 'pes');
			expect((await api.waitForJob('conversion', body.job.id)).status).toBe('completed');
			const control = await fetch(`${origin}/__sandbox/clock`, {
				headers: { 'X-Sandbox-Admin': printed.adminToken },
			});
			expect(control.status).toBe(200);
			// The link's button signs in: a POST to the printed address.
			const signIn = await fetch(printed.signInLink, { method: 'POST', redirect: 'manual' });
			expect([signIn.status, signIn.headers.get('location')]).toEqual([303, '/account/keys']);
		} finally {
			const exited = exitCode(child);
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it(
		'stops within a few seconds of SIGTERM during a long job, sent twice, whose work stops with it; ' +
			'the next start queues the job again',
		async () => {
			const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
			let first: Awaited<ReturnType<typeof startCli>> | undefined;
			try {
				first = await startCli(['--port', '0', '--data', dataDir, '--workers', '1']);
				const origin = first.printed.baseUrl.replace(/\/api\/v1$/, '');
				const api = new Api(
					{ baseUrl: first.printed.baseUrl, origin } as RunningSandbox,
					first.printed.demoKey,
				);
				// Two million short stitches, just under the entry ceiling: reading, writing and previews take
				// many seconds (tens on a loaded machine), far more than the stop may.
				const { body } = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
					{ field: 'files[]', name: 'long.dst', bytes: longDst(1_999_990) },
				]);
				const id = body.job.id;
				for (let status = ''; status !== 'processing'; ) {
					status = (await api.get(`/jobs/conversion/${id}`)).body.job.status;
					expect(['queued', 'processing']).toContain(status);
					await new Promise((resolve) => setTimeout(resolve, 200));
				}
				const engines = descendants(first.child.pid!);
				expect(engines.length).toBeGreaterThan(0);
				const exited = exitCode(first.child);
				const closing = prints(first.child, 'SIGTERM: giving running jobs 3 s');
				first.child.kill('SIGTERM');
				// Sent again while it closes, as a second Ctrl+C would be: the close still runs to its end.
				await closing;
				first.child.kill('SIGTERM');
				// 0: the close ended by itself (3 s for running jobs, then the engine process is killed), within the
				// CLI's own 10 s bound, which exits 1. Not timed here: the next start finds the job unfinished.
				expect(await exited).toBe(0);
				// The engine processes (with the job's image work) are gone, not orphaned.
				for (const pid of engines) expect(alive(pid)).toBe(false);
				// Whatever the killed job half-wrote is removed at the next start, like this stray file.
				const stray = join(dataDir, 'files', 'stray-output.pes');
				writeFileSync(stray, 'half-written');

				const second = await startCli(['--port', '0', '--data', dataDir, '--workers', '1']);
				try {
					const again = new Api(
						{
							baseUrl: second.printed.baseUrl,
							origin: second.printed.baseUrl.replace(/\/api\/v1$/, ''),
						} as RunningSandbox,
						second.printed.demoKey,
					);
					const job = (await again.get(`/jobs/conversion/${id}`)).body.job;
					expect(['queued', 'processing']).toContain(job.status);
					expect(existsSync(stray)).toBe(false);
					const db = new DatabaseSync(join(dataDir, 'sandbox.db'), { readOnly: true });
					const named = (
						db.prepare('SELECT path FROM uploads').all() as Array<{ path: string }>
					).map((row) => row.path);
					db.close();
					const stored = readdirSync(join(dataDir, 'files'), {
						recursive: true,
						withFileTypes: true,
					})
						.filter((entry) => entry.isFile())
						.map((entry) => relative(join(dataDir, 'files'), join(entry.parentPath, entry.name)));
					// The job's source and nothing else (its new attempt may be writing; its ids are new).
					expect(named).toHaveLength(1);
					expect(stored).toContain(named[0]);
				} finally {
					const stopped = exitCode(second.child);
					second.child.kill('SIGTERM');
					expect(await stopped).toBe(0);
				}
			} finally {
				if (first?.child.exitCode === null) first.child.kill('SIGKILL');
				rmSync(dataDir, { recursive: true, force: true });
			}
		},
	);

	it('refuses a bad flag value with a message and exit code 2', async () => {
		const child = spawn(
			process.execPath,
			[join(repositoryRoot, 'node_modules/tsx/dist/cli.mjs'), 'sandbox/cli.ts', '--port', 'abc'],
			{
				cwd: repositoryRoot,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let errors = '';
		child.stderr!.on('data', (chunk) => (errors += chunk));
		expect(await exitCode(child)).toBe(2);
		expect(errors).toMatch(/--port needs a whole number/);
	});
});

describe('the sandbox embedded in a script (as the benchmarks and npm start use it)', () => {
	it(
		'finishes close() after running jobs: the engine ' +
			'processes are awaited, never left to drop the process',
		async () => {
			// With nothing else running, a close() awaiting processes that do not hold the event loop lets Node
			// exit silently with code 0 before "closed" is printed (it did in about one run of three).
			const script =
				`
const { readFileSync } = require('node:fs');
const { startSandbox } = require('./sandbox/index.ts');
(async () => {
	const sandbox = await startSandbox({ port: 0, workers: 2, networkRateLimit: 0 });
	const headers = { authorization: 'Bearer ' + sandbox.demoKey };
	const form = new FormData();
	form.append('workflow', 'conversion');
	form.append('format', 'pes');
	for (let i = 0; i < 10; i++) form.append('files[]', new ` +
				`Blob([readFileSync('test/fixtures/embroidery/Star.DST')]), 'Star' + i + '.DST');
	const { jobs } = await (await fetch(sandbox.baseUrl + '/jobs', { method: 'POST', headers, body: form })).json();
	for (const job of jobs) {
		for (;;) {
			const answer = await (await fetch(sandbox.baseUrl + '/jobs/conversion/' + job.id, { headers })).json();
			const status = (answer.job ?? answer).status;
			if (status === 'completed' || status === 'failed') break;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
	await sandbox.close();
	console.log('closed');
})();`;
			// Four scripts side by side, not one after the other: each is a process of its own with its own event
			// loop, and four in a row outran 360 s beside other runs (load average 50, issue 42).
			const runs = Array.from({ length: 4 }, async () => {
				const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
					cwd: repositoryRoot,
					stdio: ['ignore', 'pipe', 'pipe'],
				});
				let output = '';
				child.stdout!.on('data', (chunk) => (output += chunk));
				child.stderr!.on('data', (chunk) => (output += chunk));
				return { code: await exitCode(child), output: () => output };
			});
			for (const { code, output } of await Promise.all(runs)) {
				expect(code).toBe(0);
				expect(output()).toContain('closed');
			}
		},
	);
});
