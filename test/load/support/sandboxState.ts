import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { RunningSandbox } from '../../support/sandbox';

export interface StoredJob {
	id: string;
	/** The source file's name: `order-7.dst`. */
	title: string;
	status: string;
	downloadsUnlocked: boolean;
	/** How many times each event happened to the job: `{ created: 1, unlocked: 1, … }`. */
	events: Record<string, number>;
	/** sha256 (hex) of the stored output file, when there is one. */
	outputChecksum?: string;
	/** Sandbox-clock milliseconds. */
	createdAt: number;
	completedAt: number | null;
}

/**
 * What the sandbox itself recorded for an account, read straight from its SQLite file (read-only, beside the
 * running server): the ground truth for "no job created or unlocked twice".
 */
export function storedJobs(sandbox: RunningSandbox, accountId: string): StoredJob[] {
	const db = new DatabaseSync(join(sandbox.dataDir, 'sandbox.db'), { readOnly: true });
	try {
		const jobs = db
			.prepare(
				'SELECT id, title, status, downloads_unlocked, created_at, completed_at FROM jobs ' +
					'WHERE account_id = ? ORDER BY created_at, id',
			)
			.all(accountId) as Array<{
			id: string;
			title: string;
			status: string;
			downloads_unlocked: number;
			created_at: number;
			completed_at: number | null;
		}>;
		const events = db.prepare(
			'SELECT type, COUNT(*) AS count FROM job_events WHERE job_id = ? GROUP BY type',
		);
		const output = db.prepare("SELECT checksum FROM uploads WHERE job_id = ? AND role = 'output'");
		return jobs.map((job) => ({
			id: job.id,
			title: job.title,
			status: job.status,
			downloadsUnlocked: job.downloads_unlocked === 1,
			events: Object.fromEntries(
				(events.all(job.id) as Array<{ type: string; count: number }>).map((row) => [
					row.type,
					row.count,
				]),
			),
			outputChecksum: (output.get(job.id) as { checksum: string } | undefined)?.checksum,
			createdAt: job.created_at,
			completedAt: job.completed_at,
		}));
	} finally {
		db.close();
	}
}
