import { createHash, randomBytes } from 'node:crypto';

import type { AccountsTable } from '../storage/accounts';
import { transaction } from '../storage/database';
import type { SessionsTable, SignInLinksTable } from '../storage/sessions';
import type { DatabaseSync } from 'node:sqlite';
import type { SandboxClock } from './clock';
import { ApiError, NotFoundError } from './errors';

/** How long a sign-in link can be used: long enough to copy it from a terminal, short enough to leak little. */
export const signInLinkTtlSeconds = 15 * 60;
/** How long a page session lasts after sign-in. */
export const sessionTtlSeconds = 12 * 60 * 60;
/** How long a key created on the keys page waits to be shown by the redirect's GET. */
const newKeyHoldMs = 5 * 60 * 1000;

/** A signed-in visitor of the account pages. */
export interface PageSession {
	accountId: string;
	/** What every form of the session sends back; compared on every POST. */
	csrfToken: string;
	expiresAt: number;
}

/** A sign-in link that was used already, has expired or was never issued: the page says which. */
export class SignInLinkRefusedError extends ApiError {
	constructor(
		status: 404 | 410,
		readonly reason: 'used' | 'expired' | 'unknown',
		message: string,
	) {
		super(status, message);
	}
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const token = () => randomBytes(32).toString('base64url');

/**
 * Sign-in to the account pages: one-time links the operator mints, and the sessions they open.
 * Links and session ids are stored as SHA-256 hashes, like API keys, so the database alone opens nothing.
 */
export class SessionService {
	/** Keys created and not yet shown, by session id hash. */
	private readonly newKeys = new Map<string, { key: string; until: number }>();

	constructor(
		private readonly db: DatabaseSync,
		private readonly links: SignInLinksTable,
		private readonly sessions: SessionsTable,
		private readonly accounts: AccountsTable,
		private readonly clock: SandboxClock,
	) {}

	/** A new single-use link token for the account; the caller builds the URL around it. */
	createSignInLink(accountId: string): { token: string; expiresAt: number } {
		if (!this.accounts.find(accountId)) throw new NotFoundError(`No account ${accountId}.`);
		const now = this.clock.now();
		const linkToken = token();
		const expiresAt = now + signInLinkTtlSeconds * 1000;
		this.links.insert({
			token_hash: digest(linkToken),
			account_id: accountId,
			expires_at: expiresAt,
			used_at: null,
			created_at: now,
		});
		return { token: linkToken, expiresAt };
	}

	/**
	 * Refuses a link that cannot sign in (unknown, used, expired) and changes nothing: opening a link (a
	 * GET, a HEAD, a chat's link preview, a mail scanner) only shows the page whose button signs in.
	 */
	checkSignInLink(linkToken: string): void {
		this.usableLink(digest(linkToken), this.clock.now());
	}

	/** Uses up the link and opens a session: its id goes into the cookie, never into the database. */
	signIn(linkToken: string): PageSession & { sessionId: string } {
		const hash = digest(linkToken);
		const now = this.clock.now();
		return transaction(this.db, () => {
			const link = this.usableLink(hash, now);
			this.links.use(hash, now);
			const sessionId = token();
			const session = {
				accountId: link.account_id,
				csrfToken: token(),
				expiresAt: now + sessionTtlSeconds * 1000,
			};
			this.sessions.insert({
				id_hash: digest(sessionId),
				account_id: session.accountId,
				csrf_token: session.csrfToken,
				expires_at: session.expiresAt,
				created_at: now,
			});
			return { ...session, sessionId };
		});
	}

	private usableLink(hash: string, now: number) {
		const link = this.links.find(hash);
		if (!link) {
			throw new SignInLinkRefusedError(404, 'unknown', 'This sign-in link is not valid.');
		}
		if (link.used_at !== null) {
			throw new SignInLinkRefusedError(410, 'used', 'This sign-in link has already been used.');
		}
		if (link.expires_at <= now) {
			throw new SignInLinkRefusedError(410, 'expired', 'This sign-in link has expired.');
		}
		return link;
	}

	/**
	 * Keeps a key just created on the keys page for the page's next GET (POST, redirect, GET): shown
	 * there once, then gone. Only in memory, and for 5 minutes at most.
	 */
	holdNewKey(sessionId: string, key: string): void {
		this.newKeys.set(digest(sessionId), { key, until: this.clock.now() + newKeyHoldMs });
	}

	/** The key held for this session, removed as it is taken. */
	takeNewKey(sessionId: string): string | undefined {
		const hash = digest(sessionId);
		const held = this.newKeys.get(hash);
		this.newKeys.delete(hash);
		return held && held.until > this.clock.now() ? held.key : undefined;
	}

	/** The live session behind a cookie value; an expired one is removed and counts as none. */
	session(sessionId: string): PageSession | undefined {
		const hash = digest(sessionId);
		const row = this.sessions.find(hash);
		if (!row) return undefined;
		if (row.expires_at <= this.clock.now()) {
			this.sessions.remove(hash);
			return undefined;
		}
		return { accountId: row.account_id, csrfToken: row.csrf_token, expiresAt: row.expires_at };
	}

	signOut(sessionId: string): void {
		this.sessions.remove(digest(sessionId));
	}
}
