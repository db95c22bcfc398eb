import { plans, type Plan } from '../domain/accounts';
import type { AccountRow, AccountsTable } from '../storage/accounts';
import type { SandboxClock } from './clock';
import { FieldErrors, NotFoundError } from './errors';
import { newId } from './ids';

const subscriptionPeriodMs = 30 * 24 * 60 * 60 * 1000;

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

/** Accounts: creating them on a plan, and each one as of the sandbox clock (subscriptions renewed). */
export class AccountService {
	constructor(
		private readonly accounts: AccountsTable,
		private readonly clock: SandboxClock,
	) {}

	createAccount(input: NewAccount, id = newId(this.clock.now())): AccountRow {
		const errors = new FieldErrors();
		if (typeof input.name !== 'string' || input.name.trim() === '')
			errors.add('name', 'The name field is required.');
		if (!plans.includes(input.plan))
			errors.add('plan', `The plan must be one of: ${plans.join(', ')}.`);
		for (const field of [
			'creditBalance',
			'previewRemaining',
			'dailyLimit',
			'monthlyLimit',
			'entitlements',
		] as const) {
			const value = input[field];
			if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
				errors.add(field, `The ${field} must be a whole number of at least 0.`);
			}
		}
		errors.throwIfAny();
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
}
