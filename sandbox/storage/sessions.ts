import type { DatabaseSync } from 'node:sqlite';

import { insertRow } from './database';

export interface SignInLinkRow {
	/** SHA-256 of the link's token, hex; the token itself is never stored. */
	token_hash: string;
	account_id: string;
	expires_at: number;
	used_at: number | null;
	created_at: number;
}

export interface SessionRow {
	/** SHA-256 of the session cookie's value, hex. */
	id_hash: string;
	account_id: string;
	/** The token every form of this session must send back. */
	csrf_token: string;
	expires_at: number;
	created_at: number;
}

const linkColumns = [
	'token_hash',
	'account_id',
	'expires_at',
	'used_at',
	'created_at',
] as const satisfies ReadonlyArray<keyof SignInLinkRow>;

const sessionColumns = [
	'id_hash',
	'account_id',
	'csrf_token',
	'expires_at',
	'created_at',
] as const satisfies ReadonlyArray<keyof SessionRow>;

export class SignInLinksTable {
	constructor(private readonly db: DatabaseSync) {}

	insert(row: SignInLinkRow): void {
		insertRow(this.db, 'sign_in_links', linkColumns, row);
	}

	find(tokenHash: string): SignInLinkRow | undefined {
		return this.db.prepare('SELECT * FROM sign_in_links WHERE token_hash = ?').get(tokenHash) as
			| SignInLinkRow
			| undefined;
	}

	/** Marks the link used; false when it already was, so two clicks at once sign in only once. */
	use(tokenHash: string, at: number): boolean {
		const result = this.db
			.prepare('UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL')
			.run(at, tokenHash);
		return result.changes > 0;
	}
}

export class SessionsTable {
	constructor(private readonly db: DatabaseSync) {}

	insert(row: SessionRow): void {
		insertRow(this.db, 'sessions', sessionColumns, row);
	}

	find(idHash: string): SessionRow | undefined {
		return this.db.prepare('SELECT * FROM sessions WHERE id_hash = ?').get(idHash) as
			| SessionRow
			| undefined;
	}

	remove(idHash: string): void {
		this.db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(idHash);
	}
}
