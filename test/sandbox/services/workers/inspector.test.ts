/** The upload inspection threads: accounts take turns, so one account's uploads cannot hold another's back. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
		writeFileSync(path, fixture('Star.DST'));
		const finished: string[] = [];
		const busy = Array.from({ length: 20 }, (_, n) =>
			inspector.inspect(request(path), 'busy').then(() => finished.push(`busy-${n}`)),
		);
		const other = inspector.inspect(request(path), 'other').then(() => finished.push('other'));
		await Promise.all([...busy, other]);
		// Two threads: the busy account holds both, and the other account takes the first one freed.
		expect(finished.indexOf('other')).toBeLessThanOrEqual(2);
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
