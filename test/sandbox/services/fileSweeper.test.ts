/** Expired files leave the disk on the schedule their API access ends, on the sandbox clock. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { newClient } from '../support/apiClient';
import { sandboxAdmin } from '../../support/sandbox';
import { useOwnSandboxes } from '../../support/sandboxFixture';

const sandboxes = useOwnSandboxes();

/** Bytes of every stored file under the data folder's `files/` (sources, outputs, previews). */
function storedBytes(dataDir: string): number {
	return readdirSync(join(dataDir, 'files'), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

describe('FileSweeper', () => {
	it('deletes a source at its TTL and the outputs at their retention: the folder returns to its size', async () => {
		const own = await sandboxes.own({ sourceTtlSeconds: 300, outputRetentionSeconds: 600 });
		const admin = sandboxAdmin(own);
		const api = await newClient(own, { plan: 'credits', creditBalance: 5 });
		const empty = storedBytes(own.dataDir);

		const { body } = await api.convert('Star.DST', 'pes');
		const job = await api.waitForJob('conversion', body.job.id);
		expect(job.status).toBe('completed');
		const withJob = storedBytes(own.dataDir);
		expect(withJob).toBeGreaterThan(empty + job.source.size);
		expect(job.outputs[0].expiresAt).toBe(
			new Date(Date.parse(job.completedAt) + 600_000).toISOString(),
		);

		await admin.advanceClock(301);
		// The source is gone from disk and from the API (410); the outputs are kept.
		expect(storedBytes(own.dataDir)).toBe(withJob - job.source.size);
		const source = await api.fetchUrl(job.source.downloadUrl);
		expect(source.status).toBe(410);

		await admin.advanceClock(300);
		expect(storedBytes(own.dataDir)).toBe(empty);
		const later = await api.waitForJob('conversion', body.job.id);
		expect(
			(await api.fetchUrl(later.artifacts[0].previewUrl ?? later.outputs[0].previewUrl)).status,
		).toBe(410);
		// Unlocking files that are gone charges nothing.
		const unlock = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
		expect(unlock.status).toBe(410);
		expect(unlock.body.message).toMatch(/kept for their retention time and have been deleted/);
		expect((await admin.usage(api.accountId)).creditBalance).toBe(5);
	});
});
