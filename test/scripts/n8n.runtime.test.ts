/**
 * scripts/n8n.ts's n8nRuntime without ensure_n8n's N8N_BIN: it takes the cached n8n only when its install
 * is complete (the marker scripts/n8n.sh writes last), never what a stopped install left.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { installMarker, n8nRuntime, testedN8nVersions } from '../../scripts/n8n';

describe('n8nRuntime from the cache folder', () => {
	const saved = { ...process.env };
	let cache: string;
	let installed: string;

	beforeEach(() => {
		cache = mkdtempSync(join(tmpdir(), 'embroidery-runtime-'));
		installed = join(cache, `n8n-${testedN8nVersions().current}`);
		const bin = join(installed, 'node_modules', 'n8n', 'bin');
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, 'n8n'), '');
		writeFileSync(join(installed, 'node_modules', 'n8n', 'package.json'), '{"version":"2.41.1"}');
		delete process.env.N8N_BIN;
		delete process.env.N8N_NODE_BIN;
		process.env.EMBROIDERY_CACHE_DIR = cache;
	});

	afterEach(() => {
		process.env = { ...saved };
		rmSync(cache, { recursive: true, force: true });
	});

	it('refuses an install without its marker, saying what to run', () => {
		expect(() => n8nRuntime()).toThrow(
			`n8n in ${installed} is not known to be completely installed (no ${installMarker}). Run "npm start" once`,
		);
	});

	it('takes a complete install', () => {
		writeFileSync(join(installed, installMarker), '2026-11-28T08:00:00Z\n');
		expect(n8nRuntime()).toMatchObject({ version: '2.41.1', major: 2, node: process.execPath });
	});
});
