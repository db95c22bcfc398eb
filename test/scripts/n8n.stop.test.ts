/**
 * scripts/n8n.ts's LocalN8n.stop() while start() still waits for n8n to be ready: a jest hook that timed out
 * during start() runs its file's afterAll then, and the booting n8n must end with it instead of outliving the
 * run. The n8n here is a Node script in a cache folder of its own (as n8nRuntime finds an install) that never
 * answers the readiness probe, like an n8n still booting on a loaded machine.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	installMarker,
	LocalN8n,
	sleep,
	testedN8nVersions,
	type N8nPidFile,
} from '../../scripts/n8n';
import { alive } from '../support/sandboxProcess';

describe('LocalN8n.stop() during start()', () => {
	const saved = { ...process.env };
	let cache: string;

	beforeEach(() => {
		cache = mkdtempSync(join(tmpdir(), 'embroidery-stop-'));
		const installed = join(cache, `n8n-${testedN8nVersions().current}`);
		const bin = join(installed, 'node_modules', 'n8n', 'bin');
		mkdirSync(bin, { recursive: true });
		// Boots forever: listens nowhere, so the readiness probe never answers.
		writeFileSync(join(bin, 'n8n'), 'setInterval(() => undefined, 1000);\n');
		writeFileSync(join(installed, 'node_modules', 'n8n', 'package.json'), '{"version":"2.41.1"}');
		writeFileSync(join(installed, installMarker), '2026-11-28T08:00:00Z\n');
		delete process.env.N8N_BIN;
		delete process.env.N8N_NODE_BIN;
		process.env.EMBROIDERY_CACHE_DIR = cache;
	});

	afterEach(() => {
		process.env = { ...saved };
		rmSync(cache, { recursive: true, force: true });
	});

	it('ends the n8n that is still booting, and start() says it was stopped', async () => {
		const n8n = await LocalN8n.create({ userFolder: join(cache, 'user') });
		const starting = n8n.start(120_000);
		const outcome = starting.then(
			() => 'ready',
			(error: Error) => error.message,
		);
		for (let waited = 0; !existsSync(n8n.pidFile) && waited < 600; waited++) await sleep(100);
		const { pid } = JSON.parse(readFileSync(n8n.pidFile, 'utf8')) as N8nPidFile;
		expect(alive(pid)).toBe(true);

		await n8n.stop(5_000);

		expect(alive(pid)).toBe(false);
		expect(existsSync(n8n.pidFile)).toBe(false);
		expect(await outcome).toBe('n8n start was ended by SIGTERM before it was ready.');
	});
});
