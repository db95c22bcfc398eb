/**
 * Writes to the sandbox's database that fail midway (a real SQLite trigger refusing an insert): recording a
 * finished job, an unlock and a job's creation each commit all or nothing, files included.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { fixture } from '../../support/embroideryFiles';
import { newClient } from '../support/apiClient';
import { useSandbox } from '../../support/sandboxFixture';

const suite = useSandbox({ workers: 1 });

describe('recording a finished job', () => {
	it(
		'fails the job with recording_failed, keeps no half-recorded outputs and rejects no promise ' +
			'when a write throws',
		async () => {
			const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-recording-'));
			const rejections: unknown[] = [];
			const onRejection = (reason: unknown) => rejections.push(reason);
			process.on('unhandledRejection', onRejection);
			const own = await suite.own({ dataDir });
			try {
				const api = await newClient(own);
				// A real SQLite failure on the last of the three result rows (output and preview come first).
				const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
				db.exec(`CREATE TRIGGER refuse_results BEFORE INSERT ON uploads
				WHEN NEW.role = 'preview_watermarked'
				BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
				db.close();

				const { body } = await api.convert('Star.DST', 'pes');
				const job = await api.waitForJob('conversion', body.job.id);
				expect(job).toMatchObject({
					status: 'failed',
					failureCode: 'recording_failed',
					outputs: [],
				});
				expect(job.failureReason).toMatch(/disk full \(test\)/);
				expect(job.events.map((event: any) => event.type)).toEqual([
					'created',
					'processing',
					'failed',
				]);
				// The engine's files went with the rows: only the source stays in the account's folder.
				expect(readdirSync(join(dataDir, 'files', api.accountId))).toHaveLength(1);
				expect(rejections).toEqual([]);

				// The sandbox keeps serving, and the job runs once the database accepts writes again.
				const fix = new DatabaseSync(join(dataDir, 'sandbox.db'));
				fix.exec('DROP TRIGGER refuse_results');
				fix.close();
				expect((await api.post(`/jobs/conversion/${body.job.id}/retry`)).status).toBe(202);
				expect((await api.waitForJob('conversion', body.job.id)).status).toBe('completed');
			} finally {
				process.off('unhandledRejection', onRejection);
				await own.close();
				rmSync(dataDir, { recursive: true, force: true });
			}
		},
	);
});

describe('unlocking', () => {
	it('charges nothing when recording the unlock fails: charge, unlock and event are one transaction', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-unlock-'));
		const own = await suite.own({ dataDir });
		try {
			const api = await newClient(own, { plan: 'credits', creditBalance: 5 });
			const { body } = await api.convert('Star.DST', 'pes');
			await api.waitForJob('conversion', body.job.id);
			const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
			db.exec(`CREATE TRIGGER refuse_unlock BEFORE INSERT ON job_events
				WHEN NEW.type = 'unlocked'
				BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
			const refused = await api.post(`/jobs/conversion/${body.job.id}/unlock`);
			expect(refused.status).toBe(500);
			expect((await api.get('/usage')).body.freeUsage.creditBalance).toBe(5);
			expect((await api.get(`/jobs/conversion/${body.job.id}`)).body.job.downloadsUnlocked).toBe(
				false,
			);
			db.exec('DROP TRIGGER refuse_unlock');
			db.close();
			expect((await api.post(`/jobs/conversion/${body.job.id}/unlock`)).status).toBe(200);
			expect((await api.get('/usage')).body.freeUsage.creditBalance).toBe(4);
		} finally {
			await own.close();
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});

describe('creating jobs', () => {
	it('keeps no source file when the inserts fail: the rows roll back and the moved files go with them', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-create-'));
		const own = await suite.own({ dataDir });
		try {
			const api = await newClient(own);
			const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
			// The second job's insert fails, after both sources were moved into the store.
			db.exec(`CREATE TRIGGER refuse_second_job BEFORE INSERT ON jobs
				WHEN (SELECT COUNT(*) FROM uploads WHERE account_id = NEW.account_id) >= 2
				BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END;`);
			const refused = await api.createJob({ workflow: 'conversion', format: 'pes' }, [
				{ field: 'files[]', name: 'one.dst', bytes: fixture('Star.DST') },
				{ field: 'files[]', name: 'two.dst', bytes: fixture('Star.DST') },
			]);
			expect(refused.status).toBe(500);
			expect(readdirSync(join(dataDir, 'files', api.accountId))).toEqual([]);
			expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
			expect((await api.get('/jobs')).body.data).toEqual([]);
			db.exec('DROP TRIGGER refuse_second_job');
			db.close();
		} finally {
			await own.close();
			rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
