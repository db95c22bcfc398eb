import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Api } from './client';
import type { RunningSandbox } from '../support/sandbox';

// Generous: the suite shares two cores with other heavy runs (builds, n8n, benches).
jest.setTimeout(120_000);

const root = join(__dirname, '..', '..');

/** Starts `tsx sandbox/cli.ts` (what `npm run sandbox` runs) and reads what it prints. */
async function startCli(
	args: string[],
): Promise<{ child: ChildProcess; printed: Record<string, string> }> {
	const child = spawn(
		process.execPath,
		[join(root, 'node_modules/tsx/dist/cli.mjs'), 'sandbox/cli.ts', ...args],
		{
			cwd: root,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let output = '';
	child.stderr!.on('data', (chunk) => (output += chunk));
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk) => {
			output += chunk;
			if (output.includes('Press Ctrl+C')) resolve();
		});
		child.once('exit', (code) => reject(new Error(`The CLI exited with ${code}: ${output}`)));
	});
	const line = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
	return {
		child,
		printed: {
			baseUrl: line('Base URL'),
			demoKey: line('Demo API key'),
			adminToken: line('Admin token'),
		},
	};
}

function exitCode(child: ChildProcess): Promise<number | null> {
	return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
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
		} finally {
			const exited = exitCode(child);
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
			rmSync(dataDir, { recursive: true, force: true });
		}
	});

	it('refuses a bad flag value with a message and exit code 2', async () => {
		const child = spawn(
			process.execPath,
			[join(root, 'node_modules/tsx/dist/cli.mjs'), 'sandbox/cli.ts', '--port', 'abc'],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let errors = '';
		child.stderr!.on('data', (chunk) => (errors += chunk));
		expect(await exitCode(child)).toBe(2);
		expect(errors).toMatch(/--port needs a whole number/);
	});
});
