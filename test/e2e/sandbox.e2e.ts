/**
 * `npm run sandbox` on the Node the n8n under test runs on: Node 22 beside n8n 1.123.81 (the README
 * promises the sandbox from Node 22.13, where node:sqlite exists), Node 24 beside n8n 2.41.1. The
 * sandbox CLI starts on that Node with tsx as its loader, as `npm run sandbox` starts it: one process, which
 * gets a signal itself. (tsx's own CLI relays signals to a second process and kills it when that process has
 * not answered within 30 ms, which a loaded machine missed.) It serves the formats listing, converts a file in
 * its engine processes (children of that Node) and stops on SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { n8nRuntime } from '../../scripts/n8n';
import { Api } from '../sandbox/support/apiClient';
import type { RunningSandbox } from '../support/sandbox';
import { spawnSandbox } from '../support/sandboxProcess';

const runtime = n8nRuntime();
const nodeVersion = execFileSync(runtime.node, ['-p', 'process.versions.node'], {
	encoding: 'utf8',
}).trim();
/** The Node line scripts/n8n.sh installs each n8n line with. */
const expectedMajor = runtime.major >= 2 ? 24 : 22;

describe(`npm run sandbox on Node ${nodeVersion}, the Node of n8n ${runtime.version}`, () => {
	it(`is Node ${expectedMajor}, at least 22.13 (node:sqlite)`, () => {
		const [major, minor] = nodeVersion.split('.').map(Number);
		expect(major).toBe(expectedMajor);
		expect(major > 22 || minor >= 13).toBe(true);
	});

	it('starts sandbox/cli.ts with tsx as its loader, lists the formats, converts a file, stops on SIGTERM', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-node-'));
		const { child, printed } = await spawnSandbox(
			['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--data', dataDir, '--workers', '1'],
			runtime.node,
		);
		try {
			const origin = printed.baseUrl.replace(/\/api\/v1$/, '');
			const api = new Api({ baseUrl: printed.baseUrl, origin } as RunningSandbox, printed.demoKey);
			const formats = await api.get('/formats');
			expect(formats.status).toBe(200);
			expect(formats.body.data.map((entry: { format: string }) => entry.format)).toEqual(
				expect.arrayContaining(['dst', 'pes']),
			);
			const { body } = await api.convert('Star.DST', 'pes');
			expect((await api.waitForJob('conversion', body.job.id, 120_000)).status).toBe('completed');
		} finally {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
