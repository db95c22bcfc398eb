/** The upload inspection threads: accounts take turns, so one account's uploads cannot hold another's back. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { SourceInspector } from '../../../../sandbox/services/workers/inspector';
import { fixture } from '../../../support/embroideryFiles';

let folder: string;
let inspector: SourceInspector;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'inspector-'));
	inspector = new SourceInspector(256);
});

afterEach(async () => {
	await inspector.close();
	rmSync(folder, { recursive: true, force: true });
});

const request = (path: string) => ({ path, workflow: 'conversion' as const, fileName: 'Star.DST' });

describe('SourceInspector', () => {
	it('answers each inspection with the checksum and format', async () => {
		const path = join(folder, 'star.dst');
		writeFileSync(path, fixture('Star.DST'));
		const inspection = await inspector.inspect(request(path), 'account-a');
		expect(inspection).toMatchObject({
			kind: 'dst',
			checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
	});

	it("inspects another account's upload after at most the busy account's running ones, not its backlog", async () => {
		const path = join(folder, 'star.dst');
		const otherPath = join(folder, 'other.dst');
		writeFileSync(path, fixture('Star.DST'));
		writeFileSync(otherPath, fixture('Star.DST'));
		// The order the inspections are handed to the threads. The order they finish in was asserted before, and a
		// loaded machine broke it: with the other account's inspection on one thread and the busy account's on the
		// other, the second thread finished two more while the first waited for a core (index 4 of 21).
		const handed = jest.spyOn(Worker.prototype, 'postMessage');
		try {
			const busy = Array.from({ length: 20 }, () => inspector.inspect(request(path), 'busy'));
			const other = inspector.inspect(request(otherPath), 'other');
			await Promise.all([...busy, other]);
			const paths = handed.mock.calls.map(
				([message]) => (message as { request: { path: string } }).request.path,
			);
			expect(paths).toHaveLength(21);
			// Two threads: the busy account holds both, and the other account takes the first one freed.
			expect(paths.indexOf(otherPath)).toBe(2);
		} finally {
			handed.mockRestore();
		}
	});

	it('fails an inspection whose file cannot be read, and goes on with the next', async () => {
		const missing = inspector.inspect(request(join(folder, 'absent.dst')), 'a');
		await expect(missing).rejects.toThrow(/ENOENT/);
		const path = join(folder, 'star.dst');
		writeFileSync(path, fixture('Star.DST'));
		await expect(inspector.inspect(request(path), 'a')).resolves.toMatchObject({ kind: 'dst' });
	});

	it('refuses inspections once closed', async () => {
		await inspector.close();
		await expect(inspector.inspect(request(join(folder, 'x')), 'a')).rejects.toThrow(/closing/);
	});
});
