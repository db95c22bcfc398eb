import type { Plan } from '../domain/accounts';
import type { Workflow } from '../domain/jobs';
import {
	creditCosts,
	creditsText,
	unlockPayment,
	type Purse,
	type UnlockMethod,
	type UnlockPayment,
} from '../domain/billing';
import type { AccountRow, AccountsTable } from '../storage/accounts';
import type { AccountService } from './accounts';
import { startOfNextUtcMonth, startOfUtcDay, startOfUtcMonth, type SandboxClock } from './clock';
import { ValidationError } from './errors';

const dayMs = 24 * 60 * 60 * 1000;

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

/** What an account may still do and what it pays: allowances, free previews, and unlocks. */
export class BillingService {
	constructor(
		private readonly accounts: AccountService,
		private readonly table: AccountsTable,
		private readonly clock: SandboxClock,
	) {}

	/** FreeUsage, computed from the account and its usage at this moment of the sandbox clock. */
	freeUsage(accountId: string): FreeUsage {
		const account = this.accounts.account(accountId);
		const now = this.clock.now();
		const dailyUsed = this.table.usageSince(accountId, startOfUtcDay(now));
		const monthlyUsed = this.table.usageSince(accountId, startOfUtcMonth(now));
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
					`The daily processing allowance is used up (${usage.dailyUsed} ` +
						`of ${usage.dailyLimit}); it resets at ${usage.dailyResetsAt}.`,
				],
			});
		}
		if (usage.monthlyRemaining < count) {
			throw new ValidationError({
				quota: [
					`The monthly processing allowance is used up (${usage.monthlyUsed} ` +
						`of ${usage.monthlyLimit}); it resets at ${usage.monthlyResetsAt}.`,
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
		const account = this.accounts.account(accountId);
		const now = this.clock.now();
		for (const jobId of jobIds) this.table.recordUsage(accountId, jobId, now);
		if (account.plan === 'free') this.table.addPreviews(accountId, -jobIds.length);
	}

	/** Pays for an unlock in the payment order (`unlockPayment`); never buys anything, 422 when nothing covers it. */
	chargeUnlock(accountId: string, workflow: Workflow): { method: UnlockMethod; credits: number } {
		const account = this.accounts.account(accountId);
		const { method, credits } = unlockPayment(purseOf(account), workflow);
		if (method === null) {
			throw new ValidationError({
				credits: [
					`Unlocking needs ${creditsText(credits)} or a subscription entitlement; the balance ` +
						`is ${account.credit_balance}. Add credits on the service's site, then unlock again.`,
				],
			});
		}
		if (method === 'subscription') this.table.addEntitlements(accountId, -1);
		if (method === 'credits') this.table.addCredits(accountId, -credits);
		return { method, credits };
	}

	/** What an unlock would do now, and the balance it would draw on, for the job's `unlock` object. */
	unlockQuote(accountId: string, workflow: Workflow): UnlockPayment & { creditBalance: number } {
		const account = this.accounts.account(accountId);
		return { ...unlockPayment(purseOf(account), workflow), creditBalance: account.credit_balance };
	}
}

function purseOf(account: AccountRow): Purse {
	return {
		plan: account.plan,
		entitlements: account.entitlements,
		creditBalance: account.credit_balance,
	};
}
