/** The sandbox's data folder: private to its owner. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { useSandbox } from '../support/sandboxFixture';

const suite = useSandbox({ workers: 1 });

describe('the data folder', () => {
	const mode = (path: string) => statSync(path).mode & 0o777;

	it('is private to its owner (0700), whether new, already there, or temporary', async () => {
		expect(mode(suite.sandbox.dataDir)).toBe(0o700);
		const parent = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
		try {
			const existing = join(parent, 'existing');
			mkdirSync(existing, { mode: 0o755 });
			chmodSync(existing, 0o755);
			for (const dataDir of [join(parent, 'new', 'nested'), existing]) {
				const own = await suite.own({ dataDir });
				await own.close();
				expect([dataDir, mode(dataDir)]).toEqual([dataDir, 0o700]);
			}
		} finally {
			rmSync(parent, { recursive: true, force: true });
		}
	});
});
