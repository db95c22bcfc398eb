import { createHash, randomBytes } from 'node:crypto';

import { abilities, plans, type Ability, type Plan } from '../domain/accounts';
import type { AccountRow, AccountsTable } from '../storage/accounts';
import type { KeysTable } from '../storage/keys';
import { startOfNextUtcMonth, startOfUtcDay, startOfUtcMonth, type SandboxClock } from './clock';
import { NotFoundError, UnauthenticatedError, ValidationError } from './errors';
import { newId } from './ids';

/** What unlocking one job costs, in credits, when no entitlement covers it. */
export const creditCosts = { conversion: 1, digitising: 2 } as const;

const dayMs = 24 * 60 * 60 * 1000;
const subscriptionPeriodMs = 30 * dayMs;

/** Allowances an account gets unless the control API says otherwise. */
const planDefaults: Record<Plan, Omit<NewAccount, 'name' | 'plan'>> = {
	free: {
		creditBalance: 0,
		previewRemaining: 10,
		dailyLimit: 5,
		monthlyLimit: 30,
		entitlements: 0,
	},
	credits: {
		creditBalance: 50,
		previewRemaining: 0,
		dailyLimit: 500,
		monthlyLimit: 5000,
		entitlements: 0,
	},
	subscription: {
		creditBalance: 0,
		previewRemaining: 0,
		dailyLimit: 1000,
		monthlyLimit: 10000,
		entitlements: 25,
	},
	internal: {
		creditBalance: 0,
		previewRemaining: 0,
		dailyLimit: 100000,
		monthlyLimit: 1000000,
		entitlements: 0,
	},
};

export interface NewAccount {
	name: string;
	plan: Plan;
	creditBalance?: number;
	previewRemaining?: number;
	dailyLimit?: number;
	monthlyLimit?: number;
	/** Subscription unlocks available before renewal. */
	entitlements?: number;
}

export interface Caller {
	keyId: string;
	accountId: string;
	abilities: Ability[];
}

export interface FreeUsage {
	limited: boolean;
	previewRemaining: number;
	creditBalance: number;
	digitisingCreditCost: number;
	conversionCreditCost: number;
	dailyLimit: number;
	dailyUsed: number;
	dailyRemaining: number;
	monthlyLimit: number;
	monthlyUsed: number;
	monthlyRemaining: number;
	dailyResetsAt: string | null;
	monthlyResetsAt: string | null;
	subscriptionPlanSlug: string | null;
	subscriptionRenewsAt: string | null;
	plan: Plan;
	unlockEntitlementsRemaining: number;
}

export function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

/** Accounts, API keys and allowances: who may call, and how much they may still do. */
export class AccountService {
	constructor(
		private readonly accounts: AccountsTable,
		private readonly keys: KeysTable,
		private readonly clock: SandboxClock,
	) {}

	createAccount(input: NewAccount, id = newId(this.clock.now())): AccountRow {
		const errors: Record<string, string[]> = {};
		if (typeof input.name !== 'string' || input.name.trim() === '')
			errors.name = ['The name field is required.'];
		if (!plans.includes(input.plan))
			errors.plan = [`The plan must be one of: ${plans.join(', ')}.`];
		for (const field of [
			'creditBalance',
			'previewRemaining',
			'dailyLimit',
			'monthlyLimit',
			'entitlements',
		] as const) {
			const value = input[field];
			if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
				errors[field] = [`The ${field} must be a whole number of at least 0.`];
			}
		}
		if (Object.keys(errors).length) throw new ValidationError(errors);
		const defaults = planDefaults[input.plan];
		const now = this.clock.now();
		const row: AccountRow = {
			id,
			name: input.name.trim(),
			plan: input.plan,
			credit_balance: input.creditBalance ?? defaults.creditBalance!,
			preview_remaining: input.previewRemaining ?? defaults.previewRemaining!,
			daily_limit: input.dailyLimit ?? defaults.dailyLimit!,
			monthly_limit: input.monthlyLimit ?? defaults.monthlyLimit!,
			entitlements: input.entitlements ?? defaults.entitlements!,
			entitlement_grant: input.entitlements ?? defaults.entitlements!,
			subscription_plan_slug: input.plan === 'subscription' ? 'studio-monthly' : null,
			subscription_renews_at: input.plan === 'subscription' ? now + subscriptionPeriodMs : null,
			created_at: now,
		};
		this.accounts.insert(row);
		return row;
	}

	find(id: string): AccountRow | undefined {
		return this.accounts.find(id);
	}

	/** The account as of the sandbox clock: a subscription past its renewal date is renewed first. */
	account(id: string): AccountRow {
		const account = this.accounts.find(id);
		if (!account) throw new NotFoundError(`No account ${id}.`);
		const renewsAt = account.subscription_renews_at;
		const now = this.clock.now();
		if (account.plan !== 'subscription' || renewsAt === null || renewsAt > now) return account;
		const periods = Math.floor((now - renewsAt) / subscriptionPeriodMs) + 1;
		const next = renewsAt + periods * subscriptionPeriodMs;
		this.accounts.setRenewal(id, next, account.entitlement_grant);
		return { ...account, subscription_renews_at: next, entitlements: account.entitlement_grant };
	}

	/** A new key; the caller sees it once, only its SHA-256 hash is kept. */
	createKey(
		accountId: string,
		requested: unknown,
		expiresInSeconds?: number,
		key = `emb_sandbox_${randomBytes(24).toString('hex')}`,
	): { id: string; key: string } {
		const errors: Record<string, string[]> = {};
		if (!this.accounts.find(accountId)) errors.accountId = [`No account ${String(accountId)}.`];
		const list = Array.isArray(requested) ? requested : [];
		const unknown = list.filter((ability) => !abilities.includes(ability as Ability));
		if (!Array.isArray(requested) || unknown.length) {
			errors.abilities = [`Abilities must be a list drawn from: ${abilities.join(', ')}.`];
		}
		if (
			expiresInSeconds !== undefined &&
			(!Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0)
		) {
			errors.expiresInSeconds = ['The expiresInSeconds must be a positive number of seconds.'];
		}
		if (Object.keys(errors).length) throw new ValidationError(errors);
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
		});
		return { id, key };
	}

	/** Registers a key chosen by the operator (the demo key) unless it is already known. */
	ensureKey(accountId: string, key: string, keyAbilities: readonly Ability[]): void {
		if (this.keys.findByHash(hashKey(key))) return;
		this.createKey(accountId, [...keyAbilities], undefined, key);
	}

	revokeKey(id: string): void {
		if (!this.keys.find(id)) throw new NotFoundError(`No key ${id}.`);
		this.keys.revoke(id, this.clock.now());
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
		if (key.expires_at !== null && key.expires_at <= this.clock.now()) {
			throw new UnauthenticatedError('Unauthenticated. The API key has expired.');
		}
		return {
			keyId: key.id,
			accountId: key.account_id,
			abilities: JSON.parse(key.abilities) as Ability[],
		};
	}

	/** FreeUsage, computed from the account and its usage at this moment of the sandbox clock. */
	freeUsage(accountId: string): FreeUsage {
		const account = this.account(accountId);
		const now = this.clock.now();
		const dailyUsed = this.accounts.usageSince(accountId, startOfUtcDay(now));
		const monthlyUsed = this.accounts.usageSince(accountId, startOfUtcMonth(now));
		const dailyRemaining = Math.max(0, account.daily_limit - dailyUsed);
		const monthlyRemaining = Math.max(0, account.monthly_limit - monthlyUsed);
		const limited = account.plan === 'free';
		const allowance = Math.min(dailyRemaining, monthlyRemaining);
		return {
			limited,
			previewRemaining: limited ? Math.min(account.preview_remaining, allowance) : allowance,
			creditBalance: account.credit_balance,
			digitisingCreditCost: creditCosts.digitising,
			conversionCreditCost: creditCosts.conversion,
			dailyLimit: account.daily_limit,
			dailyUsed,
			dailyRemaining,
			monthlyLimit: account.monthly_limit,
			monthlyUsed,
			monthlyRemaining,
			dailyResetsAt: this.clock.iso(startOfUtcDay(now) + dayMs),
			monthlyResetsAt: this.clock.iso(startOfNextUtcMonth(now)),
			subscriptionPlanSlug: account.subscription_plan_slug,
			subscriptionRenewsAt: this.clock.iso(account.subscription_renews_at),
			plan: account.plan,
			unlockEntitlementsRemaining: account.entitlements,
		};
	}

	/**
	 * Refuses a request for `count` new jobs that the account's allowance cannot cover.
	 * Limited free accounts also take one source per request.
	 */
	checkAllowance(accountId: string, count: number, filesField: string): void {
		const usage = this.freeUsage(accountId);
		if (usage.limited && count > 1) {
			throw new ValidationError({
				[filesField]: [
					'Free processing accepts one source file per request. Send the files one at a time.',
				],
			});
		}
		if (usage.dailyRemaining < count) {
			throw new ValidationError({
				quota: [
					`The daily processing allowance is used up (${usage.dailyUsed} of ${usage.dailyLimit}); it resets at ${usage.dailyResetsAt}.`,
				],
			});
		}
		if (usage.monthlyRemaining < count) {
			throw new ValidationError({
				quota: [
					`The monthly processing allowance is used up (${usage.monthlyUsed} of ${usage.monthlyLimit}); it resets at ${usage.monthlyResetsAt}.`,
				],
			});
		}
		if (usage.limited && usage.previewRemaining < count) {
			throw new ValidationError({
				quota: [
					'No free previews remain on this account. Add credits or a subscription to continue.',
				],
			});
		}
	}

	/** Counts new jobs against the allowances (inside the caller's transaction). */
	recordJobs(accountId: string, jobIds: string[]): void {
		const account = this.account(accountId);
		const now = this.clock.now();
		for (const jobId of jobIds) this.accounts.recordUsage(accountId, jobId, now);
		if (account.plan === 'free') this.accounts.addPreviews(accountId, -jobIds.length);
	}

	/**
	 * Pays for an unlock: internal accounts free, then a subscription entitlement, then credits.
	 * Never buys anything; 422 when nothing covers it.
	 */
	chargeUnlock(
		accountId: string,
		workflow: keyof typeof creditCosts,
	): { method: string; credits: number } {
		const account = this.account(accountId);
		if (account.plan === 'internal') return { method: 'internal', credits: 0 };
		if (account.plan === 'subscription' && account.entitlements > 0) {
			this.accounts.addEntitlements(accountId, -1);
			return { method: 'subscription', credits: 0 };
		}
		const cost = creditCosts[workflow];
		if (account.credit_balance >= cost) {
			this.accounts.addCredits(accountId, -cost);
			return { method: 'credits', credits: cost };
		}
		throw new ValidationError({
			credits: [
				`Unlocking needs ${cost} credit${cost > 1 ? 's' : ''} or a subscription entitlement; the balance is ${account.credit_balance}. Add credits on the service's site, then unlock again.`,
			],
		});
	}

	/** What an unlock would do now, for the job's `unlock` object. */
	unlockQuote(
		accountId: string,
		workflow: keyof typeof creditCosts,
	): { method: string | null; creditCost: number } {
		const account = this.account(accountId);
		if (account.plan === 'internal') return { method: 'internal', creditCost: 0 };
		if (account.plan === 'subscription' && account.entitlements > 0)
			return { method: 'subscription', creditCost: 0 };
		const cost = creditCosts[workflow];
		return { method: account.credit_balance >= cost ? 'credits' : null, creditCost: cost };
	}
}
