import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Api, newClient } from './support/apiClient';
import { sandboxAdmin, type RunningSandbox } from '../support/sandbox';
import { useOwnSandboxes } from '../support/sandboxFixture';

const sandboxes = useOwnSandboxes();

let dataDir: string;

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'sandbox-persistence-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `work`, then closes the sandbox whatever happened, as a restart test's first run must. */
async function closing<T>(sandbox: RunningSandbox, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} finally {
		await sandbox.close();
	}
}

/** What a crash leaves behind: rows written as if the process died mid-job. */
function editDatabase(sql: string, ...params: Array<string | number>) {
	const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
	db.prepare(sql).run(...params);
	db.close();
}

describe('restart with the same data directory', () => {
	it('keeps accounts, keys, jobs, files, signed URLs, the demo key and the admin token', async () => {
		const first = await sandboxes.own({ dataDir });
		const { api, body, unlocked, waiting } = await closing(first, async () => {
			const client = await newClient(first, { plan: 'credits', creditBalance: 5 });
			const created = (await client.convert('Star.DST', 'pes')).body;
			await client.waitForJob('conversion', created.job.id);
			const job = (await client.post(`/jobs/conversion/${created.job.id}/unlock`)).body.job;
			await sandboxAdmin(first).setFaults({ processingPaused: true });
			const queued = (await client.convert('Star.DST', 'exp')).body.job.id;
			return { api: client, body: created, unlocked: job, waiting: queued };
		});
		const { demoKey, adminToken, demoAccountId } = first;

		const second = await sandboxes.own({ dataDir });
		try {
			expect(second).toMatchObject({ demoKey, adminToken, demoAccountId });
			const again = new Api(second, api.key);
			const job = (await again.get(`/jobs/conversion/${body.job.id}`)).body.job;
			expect(job).toMatchObject({
				status: 'completed',
				downloadsUnlocked: true,
				metrics: unlocked.metrics,
			});
			expect((await again.get('/usage')).body.freeUsage).toMatchObject({
				creditBalance: 4,
				dailyUsed: 2,
			});
			// A URL signed before the restart still opens: the signing secret lives in the data directory.
			const port = new URL(second.origin).port;
			const oldUrl = unlocked.outputs[0].downloadUrl.replace(/:\d+\//, `:${port}/`);
			const file = await again.fetchUrl(oldUrl);
			expect(file.status).toBe(200);
			expect(file.bytes.length).toBe(unlocked.outputs[0].size);
			// Faults are not persisted, so the job queued before the restart now runs.
			expect((await again.waitForJob('conversion', waiting)).status).toBe('completed');
			expect((await new Api(second, demoKey).get('/usage')).status).toBe(200);
		} finally {
			await second.close();
		}
	});

	it('queues again a job a crash left processing, and fails one whose attempts are spent', async () => {
		const first = await sandboxes.own({ dataDir });
		const { api, resumed, exhausted } = await closing(first, async () => {
			const client = await newClient(first, { plan: 'internal' });
			await sandboxAdmin(first).setFaults({ processingPaused: true });
			return {
				api: client,
				resumed: (await client.convert('Star.DST', 'pes')).body.job.id as string,
				exhausted: (await client.convert('Star.DST', 'pes')).body.job.id as string,
			};
		});
		editDatabase(
			"UPDATE jobs SET status = 'processing', attempt_count = 1, run_attempts = 1 WHERE id = ?",
			resumed,
		);
		editDatabase(
			"UPDATE jobs SET status = 'processing', attempt_count = 3, run_attempts = 3 WHERE id = ?",
			exhausted,
		);
		// An output the interrupted attempt had recorded but not finished.
		editDatabase(
			`INSERT INTO uploads (id, account_id, job_id, role, name, extension, mime_type, size, checksum, path, created_at)
			SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV', account_id, id, 'output', 'half.pes', 'pes', ` +
				`'application/x-pes', 1, '', 'x/half.pes', 0
			FROM jobs WHERE id = ?`,
			resumed,
		);

		const second = await sandboxes.own({ dataDir });
		try {
			const again = new Api(second, api.key);
			const done = await again.waitForJob('conversion', resumed);
			expect(done).toMatchObject({ status: 'completed', attemptCount: 2 });
			expect(done.outputs).toHaveLength(1);
			expect(done.outputs[0].id).not.toBe('01ARZ3NDEKTSV4RRFFQ69G5FAV');
			expect(done.events.map((event: any) => event.type)).toEqual([
				'created',
				'requeued',
				'processing',
				'completed',
			]);
			const failed = await again.waitForJob('conversion', exhausted);
			expect(failed).toMatchObject({
				status: 'failed',
				failureCode: 'processing_interrupted',
				attemptCount: 3,
			});
			expect(failed.failureReason).toMatch(/interrupted/);
			// Retry gives it a fresh set of attempts.
			expect((await again.post(`/jobs/conversion/${exhausted}/retry`)).status).toBe(202);
			expect((await again.waitForJob('conversion', exhausted)).status).toBe('completed');
		} finally {
			await second.close();
		}
	});

	it('gives the demo key of a data folder from before key prefixes its prefix at the next start', async () => {
		const first = await sandboxes.own({ dataDir });
		const demoKey = first.demoKey;
		await first.close();
		editDatabase('UPDATE api_keys SET prefix = NULL');
		const second = await sandboxes.own({ dataDir });
		try {
			const signIn = await fetch(second.signInLink(), { method: 'POST', redirect: 'manual' });
			const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
			const keys = await (
				await fetch(`${second.origin}/account/keys`, { headers: { cookie } })
			).text();
			expect(keys).toContain(`<code>${demoKey.slice(0, 20)}…</code>`);
		} finally {
			await second.close();
		}
	});
});
