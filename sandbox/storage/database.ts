import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

/**
 * Schema steps, applied in order; `PRAGMA user_version` records how many ran.
 * Append new steps, never edit old ones: existing data directories depend on them.
 */
const migrations: string[] = [
	`
	CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
	CREATE TABLE accounts (
		id TEXT PRIMARY KEY,
		name TEXT NOT NULL,
		plan TEXT NOT NULL,
		credit_balance INTEGER NOT NULL,
		preview_remaining INTEGER NOT NULL,
		daily_limit INTEGER NOT NULL,
		monthly_limit INTEGER NOT NULL,
		entitlements INTEGER NOT NULL,
		subscription_plan_slug TEXT,
		subscription_renews_at INTEGER,
		created_at INTEGER NOT NULL
	);
	CREATE TABLE api_keys (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id),
		key_hash TEXT NOT NULL UNIQUE,
		abilities TEXT NOT NULL,
		expires_at INTEGER,
		revoked_at INTEGER,
		created_at INTEGER NOT NULL
	);
	CREATE TABLE uploads (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id),
		job_id TEXT,
		role TEXT NOT NULL,
		name TEXT NOT NULL,
		extension TEXT NOT NULL,
		mime_type TEXT NOT NULL,
		size INTEGER NOT NULL,
		checksum TEXT NOT NULL,
		path TEXT NOT NULL,
		expires_at INTEGER,
		created_at INTEGER NOT NULL
	);
	CREATE INDEX uploads_by_job ON uploads(job_id);
	CREATE TABLE jobs (
		id TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id),
		workflow TEXT NOT NULL,
		status TEXT NOT NULL,
		format TEXT NOT NULL,
		source_format TEXT NOT NULL,
		source_upload_id TEXT NOT NULL,
		title TEXT NOT NULL,
		width_mm REAL,
		colour_count INTEGER,
		palette_key TEXT,
		maximum_stitch_count INTEGER,
		attempt_count INTEGER NOT NULL DEFAULT 0,
		run_attempts INTEGER NOT NULL DEFAULT 0,
		metrics TEXT,
		warnings TEXT NOT NULL DEFAULT '[]',
		failure_code TEXT,
		failure_reason TEXT,
		downloads_unlocked INTEGER NOT NULL DEFAULT 0,
		unlock_method TEXT,
		unlock_credits INTEGER,
		unlocked_at INTEGER,
		created_at INTEGER NOT NULL,
		started_at INTEGER,
		completed_at INTEGER
	);
	CREATE INDEX jobs_by_account ON jobs(account_id, created_at DESC, id DESC);
	CREATE INDEX jobs_by_status ON jobs(status, id);
	CREATE TABLE job_events (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		job_id TEXT NOT NULL,
		type TEXT NOT NULL,
		at INTEGER NOT NULL,
		message TEXT
	);
	CREATE INDEX job_events_by_job ON job_events(job_id, id);
	CREATE TABLE usage (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		account_id TEXT NOT NULL,
		job_id TEXT NOT NULL,
		at INTEGER NOT NULL
	);
	CREATE INDEX usage_by_account ON usage(account_id, at);
	`,
	// Subscriptions renew: the entitlements granted per period are restored at each renewal.
	`ALTER TABLE accounts ADD COLUMN entitlement_grant INTEGER NOT NULL DEFAULT 0;
	UPDATE accounts SET entitlement_grant = entitlements;`,
	// The account pages: a key's prefix and last use for its list, one-time sign-in links and sessions.
	`ALTER TABLE api_keys ADD COLUMN prefix TEXT;
	ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
	CREATE INDEX api_keys_by_account ON api_keys(account_id, created_at DESC);
	CREATE TABLE sign_in_links (
		token_hash TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id),
		expires_at INTEGER NOT NULL,
		used_at INTEGER,
		created_at INTEGER NOT NULL
	);
	CREATE TABLE sessions (
		id_hash TEXT PRIMARY KEY,
		account_id TEXT NOT NULL REFERENCES accounts(id),
		csrf_token TEXT NOT NULL,
		expires_at INTEGER NOT NULL,
		created_at INTEGER NOT NULL
	);`,
	// Listed prefixes were the first 20 characters, a whole key when it was that short: at most half now.
	`UPDATE api_keys SET prefix = substr(prefix, 1, length(prefix) / 2) WHERE prefix IS NOT NULL;`,
	// Expired files leave the disk on the schedule their API access ends: when each was deleted.
	`ALTER TABLE uploads ADD COLUMN deleted_at INTEGER;
	CREATE INDEX uploads_on_disk_by_expiry ON uploads(expires_at) WHERE deleted_at IS NULL;`,
];

export function openDatabase(file: string): DatabaseSync {
	const db = new DatabaseSync(file);
	// NORMAL: a commit does not wait for the disk (durable at the next checkpoint or FULL commit), so bookkeeping
	// never waits behind other writes to the disk (a 500 MB upload's made job records wait 70-180 ms). What must
	// survive a power loss (a confirmed charge) commits `durable`, at FULL, which syncs every commit before it too.
	db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
	migrate(db);
	return db;
}

function migrate(db: DatabaseSync): void {
	const { user_version: version } = db.prepare('PRAGMA user_version').get() as {
		user_version: number;
	};
	for (let step = version; step < migrations.length; step++) {
		db.exec('BEGIN');
		try {
			db.exec(migrations[step]);
			db.exec(`PRAGMA user_version = ${step + 1}`);
			db.exec('COMMIT');
		} catch (error) {
			db.exec('ROLLBACK');
			throw error;
		}
	}
}

/**
 * Runs `work` in one transaction, so a multi-row change lands whole or not at all; a `durable` one is on the
 * disk when this returns, and survives a power loss.
 */
export function transaction<T>(
	db: DatabaseSync,
	work: () => T,
	{ durable = false }: { durable?: boolean } = {},
): T {
	if (durable) db.exec('PRAGMA synchronous = FULL');
	try {
		db.exec('BEGIN IMMEDIATE');
		try {
			const result = work();
			db.exec('COMMIT');
			return result;
		} catch (error) {
			db.exec('ROLLBACK');
			throw error;
		}
	} finally {
		if (durable) db.exec('PRAGMA synchronous = NORMAL');
	}
}

/** Inserts one row, naming each of its `columns` once: the values are the row's fields of the same names. */
export function insertRow<Row>(
	db: DatabaseSync,
	table: string,
	columns: ReadonlyArray<keyof Row & string>,
	row: Row,
): void {
	const placeholders = columns.map(() => '?').join(', ');
	db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders})`).run(
		...columns.map((column) => row[column] as SQLInputValue),
	);
}
