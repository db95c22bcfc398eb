import type { DatabaseSync } from 'node:sqlite';

/** Small named values that must survive a restart (signing secret, clock offset, demo account). */
export class MetaTable {
	constructor(private readonly db: DatabaseSync) {}

	get(key: string): string | undefined {
		const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
			| { value: string }
			| undefined;
		return row?.value;
	}

	set(key: string, value: string): void {
		this.db
			.prepare(
				'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
			)
			.run(key, value);
	}
}
