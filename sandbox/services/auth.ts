import { createHash, randomBytes } from 'node:crypto';

import { abilities, type Ability } from '../domain/accounts';
import type { AccountsTable } from '../storage/accounts';
import type { KeysTable } from '../storage/keys';
import type { SandboxClock } from './clock';
import { FieldErrors, NotFoundError, UnauthenticatedError } from './errors';
import { newId } from './ids';

export interface Caller {
	keyId: string;
	accountId: string;
	abilities: Ability[];
}

/** A key as its owner's list shows it: never the key, only its first characters. */
export interface KeyListing {
	id: string;
	prefix: string | null;
	abilities: Ability[];
	createdAt: number;
	expiresAt: number | null;
	lastUsedAt: number | null;
	revokedAt: number | null;
}

/**
 * Characters of a key kept in clear for its list: at most 20 ("emb_sandbox_" and 8 of its random ones),
 * and never more than half the key, so no key, however short an operator chose it, is ever listed whole.
 */
export function keyPrefix(key: string): string {
	return key.slice(0, Math.min(20, Math.floor(key.length / 2)));
}
/** Last use is recorded to the minute, so a busy key costs one write a minute, not one per request. */
const lastUseResolutionMs = 60_000;

export function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

/** API keys: issuing and revoking them, and who is behind one. */
export class AuthService {
	constructor(
		private readonly keys: KeysTable,
		private readonly accounts: AccountsTable,
		private readonly clock: SandboxClock,
	) {}

	/** A new key; the caller sees it once, only its SHA-256 hash is kept. */
	createKey(
		accountId: string,
		requested: unknown,
		expiresInSeconds?: number,
		key = `emb_sandbox_${randomBytes(24).toString('hex')}`,
	): { id: string; key: string } {
		const errors = new FieldErrors();
		if (!this.accounts.find(accountId)) errors.add('accountId', `No account ${String(accountId)}.`);
		const list = Array.isArray(requested) ? requested : [];
		const unknown = list.filter((ability) => !abilities.includes(ability as Ability));
		if (!Array.isArray(requested) || unknown.length) {
			errors.add('abilities', `Abilities must be a list drawn from: ${abilities.join(', ')}.`);
		}
		if (
			expiresInSeconds !== undefined &&
			(!Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0)
		) {
			errors.add('expiresInSeconds', 'The expiresInSeconds must be a positive number of seconds.');
		}
		errors.throwIfAny();
		const now = this.clock.now();
		const id = newId(now);
		this.keys.insert({
			id,
			account_id: accountId,
			key_hash: hashKey(key),
			abilities: JSON.stringify([...new Set(list)]),
			expires_at: expiresInSeconds === undefined ? null : now + Math.round(expiresInSeconds * 1000),
			revoked_at: null,
			created_at: now,
			prefix: keyPrefix(key),
			last_used_at: null,
		});
		return { id, key };
	}

	/** Registers a key chosen by the operator (the demo key) unless it is already known. */
	ensureKey(accountId: string, key: string, keyAbilities: readonly Ability[]): void {
		const known = this.keys.findByHash(hashKey(key));
		// A data folder from before key prefixes were kept, or kept whole: the operator's key is known in clear here.
		if (known && known.prefix !== keyPrefix(key)) this.keys.setPrefix(known.id, keyPrefix(key));
		if (known) return;
		this.createKey(accountId, [...keyAbilities], undefined, key);
	}

	revokeKey(id: string): void {
		if (!this.keys.find(id)) throw new NotFoundError(`No key ${id}.`);
		this.keys.revoke(id, this.clock.now());
	}

	/** Revokes one of the account's own keys; another account's key is as unknown as a missing one. */
	revokeKeyOf(accountId: string, id: string): void {
		if (this.keys.find(id)?.account_id !== accountId) throw new NotFoundError(`No key ${id}.`);
		this.keys.revoke(id, this.clock.now());
	}

	/** The account's keys, newest first, as its key page lists them. */
	keysOf(accountId: string): KeyListing[] {
		return this.keys.forAccount(accountId).map((row) => ({
			id: row.id,
			prefix: row.prefix,
			abilities: JSON.parse(row.abilities) as Ability[],
			createdAt: row.created_at,
			expiresAt: row.expires_at,
			lastUsedAt: row.last_used_at,
			revokedAt: row.revoked_at,
		}));
	}

	/** The caller behind an `Authorization` header; 401 for anything but a live key. */
	authenticate(header: string | undefined): Caller {
		if (!header)
			throw new UnauthenticatedError('Unauthenticated. Send "Authorization: Bearer <API key>".');
		const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header.trim());
		if (!match)
			throw new UnauthenticatedError(
				'Unauthenticated. The Authorization header must be "Bearer <API key>".',
			);
		const key = this.keys.findByHash(hashKey(match[1]));
		if (!key) throw new UnauthenticatedError('Unauthenticated. The API key is not valid.');
		if (key.revoked_at !== null)
			throw new UnauthenticatedError('Unauthenticated. The API key has been revoked.');
		const now = this.clock.now();
		if (key.expires_at !== null && key.expires_at <= now) {
			throw new UnauthenticatedError('Unauthenticated. The API key has expired.');
		}
		if (key.last_used_at === null || now - key.last_used_at >= lastUseResolutionMs) {
			this.keys.touch(key.id, now);
		}
		return {
			keyId: key.id,
			accountId: key.account_id,
			abilities: JSON.parse(key.abilities) as Ability[],
		};
	}
}
