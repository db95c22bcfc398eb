/**
 * scripts/n8n.ts's CLI commands (imports, publishing): one ended by a signal on its way out is run once more (n8n
 * 1.123 was seen so), but one stopped on purpose (SIGTERM, SIGINT, SIGKILL: npm test's Ctrl-C) is not, so nothing
 * starts again between a stop's SIGTERM and its SIGKILL. The n8n here is a Node script that counts its runs and
 * ends the way the test asks.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LocalN8n, type WorkflowExport } from '../../scripts/n8n';

const workflow: WorkflowExport = {
	id: 'cliRerun01',
	name: 'CLI rerun',
	nodes: [],
	connections: {},
};

describe("LocalN8n's CLI commands ended by a signal", () => {
	const saved = { ...process.env };
	let folder: string;
	let runs: string;

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'embroidery-cli-'));
		runs = join(folder, 'runs');
		const installed = join(folder, 'n8n');
		mkdirSync(join(installed, 'bin'), { recursive: true });
		writeFileSync(join(installed, 'package.json'), '{"version":"2.41.1"}');
		// Counts its runs; the first ends by the signal the test names, later ones succeed.
		writeFileSync(
			join(installed, 'bin', 'n8n'),
			`const { appendFileSync, existsSync, readFileSync } = require('node:fs');
const runs = process.env.STAND_IN_RUNS;
const before = existsSync(runs) ? readFileSync(runs, 'utf8').length : 0;
appendFileSync(runs, 'x');
if (before === 0) process.kill(process.pid, process.env.STAND_IN_SIGNAL);
else console.log('Successfully imported 1 workflow.');
`,
		);
		process.env.N8N_BIN = join(installed, 'bin', 'n8n');
		delete process.env.N8N_NODE_BIN;
		process.env.STAND_IN_RUNS = runs;
	});

	afterEach(() => {
		process.env = { ...saved };
		rmSync(folder, { recursive: true, force: true });
	});

	const importEndedBy = async (signal: NodeJS.Signals): Promise<string> => {
		process.env.STAND_IN_SIGNAL = signal;
		const n8n = await LocalN8n.create({ userFolder: join(folder, 'user') });
		return await n8n.importWorkflows([workflow]).then(
			() => 'imported',
			(error: Error) => error.message,
		);
	};

	it('runs a command that another signal ended once more', async () => {
		expect(await importEndedBy('SIGABRT')).toBe('imported');
		expect(readFileSync(runs, 'utf8')).toBe('xx');
	});

	it.each<NodeJS.Signals>(['SIGTERM', 'SIGINT', 'SIGKILL'])(
		'does not run a command that %s stopped again, and says what ended it',
		async (signal) => {
			expect(await importEndedBy(signal)).toMatch(
				new RegExp(`^n8n import:workflow --input=\\S+ failed \\(ended by ${signal}\\)`),
			);
			expect(readFileSync(runs, 'utf8')).toBe('x');
		},
	);
});
