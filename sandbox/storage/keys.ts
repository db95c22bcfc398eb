import type { DatabaseSync } from 'node:sqlite';

import { insertRow } from './database';

export interface KeyRow {
	id: string;
	account_id: string;
	/** SHA-256 of the key, hex; the key itself is never stored. */
	key_hash: string;
	/** JSON array of ability names. */
	abilities: string;
	expires_at: number | null;
	revoked_at: number | null;
	created_at: number;
	/** The key's first characters, shown in its list so the owner can tell keys apart; null before it was kept. */
	prefix: string | null;
	/** When the key last authenticated a request, to the minute (see AuthService.authenticate). */
	last_used_at: number | null;
}

const keyColumns = [
	'id',
	'account_id',
	'key_hash',
	'abilities',
	'expires_at',
	'revoked_at',
	'created_at',
	'prefix',
	'last_used_at',
] as const satisfies ReadonlyArray<keyof KeyRow>;

export class KeysTable {
	constructor(private readonly db: DatabaseSync) {}

	insert(row: KeyRow): void {
		insertRow(this.db, 'api_keys', keyColumns, row);
	}

	findByHash(hash: string): KeyRow | undefined {
		return this.db.prepare('SELECT * FROM api_keys WHERE key_hash = ?').get(hash) as
			| KeyRow
			| undefined;
	}

	find(id: string): KeyRow | undefined {
		return this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
	}

	/** The account's keys, newest first. */
	forAccount(accountId: string): KeyRow[] {
		return this.db
			.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, id DESC')
			.all(accountId) as unknown as KeyRow[];
	}

	setPrefix(id: string, prefix: string): void {
		this.db.prepare('UPDATE api_keys SET prefix = ? WHERE id = ?').run(prefix, id);
	}

	touch(id: string, at: number): void {
		this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
	}

	revoke(id: string, at: number): boolean {
		const result = this.db
			.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
			.run(at, id);
		return result.changes > 0;
	}
}
