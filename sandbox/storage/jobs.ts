import type { DatabaseSync } from 'node:sqlite';

import type { UnlockMethod } from '../domain/billing';
import type { JobEventType, JobStatus, Workflow } from '../domain/jobs';
import { insertRow } from './database';

export interface JobRow {
	id: string;
	account_id: string;
	workflow: Workflow;
	status: JobStatus;
	/** Output format key. */
	format: string;
	/** Detected source format key, or the artwork type for digitising. */
	source_format: string;
	source_upload_id: string;
	title: string;
	width_mm: number | null;
	colour_count: number | null;
	palette_key: string | null;
	maximum_stitch_count: number | null;
	/** Every time processing started, across retries. */
	attempt_count: number;
	/** Processing starts since the job was last queued by a client; bounds restarts. */
	run_attempts: number;
	metrics: string | null;
	warnings: string;
	failure_code: string | null;
	failure_reason: string | null;
	downloads_unlocked: number;
	unlock_method: UnlockMethod | null;
	unlock_credits: number | null;
	unlocked_at: number | null;
	created_at: number;
	started_at: number | null;
	completed_at: number | null;
}

export interface JobEventRow {
	type: JobEventType;
	at: number;
	message: string | null;
}

/** The columns a new job is created with; the others start at their defaults. */
const newJobColumns = [
	'id',
	'account_id',
	'workflow',
	'format',
	'source_format',
	'source_upload_id',
	'title',
	'width_mm',
	'colour_count',
	'palette_key',
	'maximum_stitch_count',
	'created_at',
] as const satisfies ReadonlyArray<keyof JobRow>;

export type NewJob = Pick<JobRow, (typeof newJobColumns)[number]>;

export class JobsTable {
	constructor(private readonly db: DatabaseSync) {}

	/** A new job, `queued`. */
	insert(job: NewJob): void {
		insertRow(this.db, 'jobs', [...newJobColumns, 'status'], { ...job, status: 'queued' as const });
	}

	find(id: string): JobRow | undefined {
		return this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
	}

	recentForAccount(accountId: string, limit: number): JobRow[] {
		return this.db
			.prepare('SELECT * FROM jobs WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?')
			.all(accountId, limit) as unknown as JobRow[];
	}

	/** Each account's oldest queued job (ids are time-ordered). */
	queuedHeads(): JobRow[] {
		return this.db
			.prepare(
				`SELECT * FROM jobs WHERE id IN
					(SELECT MIN(id) FROM jobs WHERE status = 'queued' GROUP BY account_id)
				ORDER BY id`,
			)
			.all() as unknown as JobRow[];
	}

	withStatus(status: JobStatus): JobRow[] {
		return this.db
			.prepare('SELECT * FROM jobs WHERE status = ? ORDER BY id')
			.all(status) as unknown as JobRow[];
	}

	countActive(accountId: string): number {
		const row = this.db
			.prepare(
				"SELECT COUNT(*) AS active FROM jobs WHERE account_id = ? AND status IN ('queued', 'processing')",
			)
			.get(accountId) as { active: number };
		return row.active;
	}

	/** Moves a queued job to processing; false when another dispatcher got there first. */
	claim(id: string, at: number): boolean {
		const result = this.db
			.prepare(
				`UPDATE jobs SET status = 'processing', started_at = ?, attempt_count = attempt_count + 1,
					run_attempts = run_attempts + 1
				WHERE id = ? AND status = 'queued'`,
			)
			.run(at, id);
		return result.changes > 0;
	}

	complete(id: string, at: number, metrics: unknown, warnings: string[]): void {
		this.db
			.prepare(
				`UPDATE jobs SET status = 'completed', completed_at = ?, metrics = ?, warnings = ?,
					failure_code = NULL, failure_reason = NULL
				WHERE id = ?`,
			)
			.run(at, metrics === null ? null : JSON.stringify(metrics), JSON.stringify(warnings), id);
	}

	fail(id: string, at: number, code: string, reason: string, warnings: string[] = []): void {
		this.db
			.prepare(
				`UPDATE jobs SET status = 'failed', completed_at = ?, failure_code = ?, failure_reason = ?, warnings = ?
				WHERE id = ?`,
			)
			.run(at, code, reason, JSON.stringify(warnings), id);
	}

	/** Back to queued for a client's retry: results and failure cleared, attempts kept. */
	requeue(id: string, resetRunAttempts: boolean): void {
		this.db
			.prepare(
				`UPDATE jobs SET status = 'queued', started_at = NULL, completed_at = NULL, metrics = NULL,
					warnings = '[]', failure_code = NULL, failure_reason = NULL,
					run_attempts = CASE WHEN ? THEN 0 ELSE run_attempts END
				WHERE id = ?`,
			)
			.run(resetRunAttempts ? 1 : 0, id);
	}

	unlock(id: string, at: number, method: UnlockMethod, credits: number): void {
		this.db
			.prepare(
				'UPDATE jobs SET downloads_unlocked = 1, unlock_method = ?, unlock_credits = ?, unlocked_at = ? WHERE id = ?',
			)
			.run(method, credits, at, id);
	}

	addEvent(jobId: string, type: JobEventType, at: number, message: string | null = null): void {
		this.db
			.prepare('INSERT INTO job_events (job_id, type, at, message) VALUES (?, ?, ?, ?)')
			.run(jobId, type, at, message);
	}

	events(jobId: string): JobEventRow[] {
		return this.db
			.prepare('SELECT type, at, message FROM job_events WHERE job_id = ? ORDER BY id')
			.all(jobId) as unknown as JobEventRow[];
	}
}
