import type { DatabaseSync } from 'node:sqlite';

import type { UploadRole } from '../domain/jobs';
import { insertRow } from './database';

export interface UploadRow {
	id: string;
	account_id: string;
	job_id: string | null;
	role: UploadRole;
	name: string;
	extension: string;
	mime_type: string;
	size: number;
	/** SHA-256 of the content, hex. */
	checksum: string;
	/** Relative to the data directory's file root. */
	path: string;
	expires_at: number | null;
	created_at: number;
	/** When the file left the disk after expiring; the record stays so its URLs answer 410. */
	deleted_at?: number | null;
}

const uploadColumns = [
	'id',
	'account_id',
	'job_id',
	'role',
	'name',
	'extension',
	'mime_type',
	'size',
	'checksum',
	'path',
	'expires_at',
	'created_at',
] as const satisfies ReadonlyArray<keyof UploadRow>;

export class UploadsTable {
	constructor(private readonly db: DatabaseSync) {}

	insert(row: UploadRow): void {
		insertRow(this.db, 'uploads', uploadColumns, row);
	}

	/** The stored path of every upload record. */
	paths(): Set<string> {
		return new Set(
			(this.db.prepare('SELECT path FROM uploads').all() as Array<{ path: string }>).map(
				(row) => row.path,
			),
		);
	}

	find(id: string): UploadRow | undefined {
		return this.db.prepare('SELECT * FROM uploads WHERE id = ?').get(id) as UploadRow | undefined;
	}

	forJob(jobId: string): UploadRow[] {
		return this.db
			.prepare('SELECT * FROM uploads WHERE job_id = ? ORDER BY id')
			.all(jobId) as unknown as UploadRow[];
	}

	/** Uploads whose time is up (`expires_at <= now`) and whose file is still on disk. */
	expiredOnDisk(now: number): UploadRow[] {
		return this.db
			.prepare(
				'SELECT * FROM uploads WHERE deleted_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY id',
			)
			.all(now) as unknown as UploadRow[];
	}

	markDeleted(id: string, at: number): void {
		this.db.prepare('UPDATE uploads SET deleted_at = ? WHERE id = ?').run(at, id);
	}

	/** Results of an earlier attempt, removed when a job is retried. */
	removeResults(jobId: string): UploadRow[] {
		const rows = this.db
			.prepare("SELECT * FROM uploads WHERE job_id = ? AND role != 'source'")
			.all(jobId) as unknown as UploadRow[];
		this.db.prepare("DELETE FROM uploads WHERE job_id = ? AND role != 'source'").run(jobId);
		return rows;
	}
}
