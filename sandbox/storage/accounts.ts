import type { DatabaseSync } from 'node:sqlite';

import type { Plan } from '../domain/accounts';
import { insertRow } from './database';

export interface AccountRow {
	id: string;
	name: string;
	plan: Plan;
	credit_balance: number;
	preview_remaining: number;
	daily_limit: number;
	monthly_limit: number;
	/** Subscription unlocks left in the current period. */
	entitlements: number;
	/** Entitlements a subscription gets back at each renewal. */
	entitlement_grant: number;
	subscription_plan_slug: string | null;
	subscription_renews_at: number | null;
	created_at: number;
}

const accountColumns = [
	'id',
	'name',
	'plan',
	'credit_balance',
	'preview_remaining',
	'daily_limit',
	'monthly_limit',
	'entitlements',
	'entitlement_grant',
	'subscription_plan_slug',
	'subscription_renews_at',
	'created_at',
] as const satisfies ReadonlyArray<keyof AccountRow>;

export class AccountsTable {
	constructor(private readonly db: DatabaseSync) {}

	insert(row: AccountRow): void {
		insertRow(this.db, 'accounts', accountColumns, row);
	}

	find(id: string): AccountRow | undefined {
		return this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
	}

	addCredits(id: string, delta: number): void {
		this.db
			.prepare('UPDATE accounts SET credit_balance = credit_balance + ? WHERE id = ?')
			.run(delta, id);
	}

	addPreviews(id: string, delta: number): void {
		this.db
			.prepare('UPDATE accounts SET preview_remaining = preview_remaining + ? WHERE id = ?')
			.run(delta, id);
	}

	addEntitlements(id: string, delta: number): void {
		this.db
			.prepare('UPDATE accounts SET entitlements = entitlements + ? WHERE id = ?')
			.run(delta, id);
	}

	setRenewal(id: string, renewsAt: number, entitlements: number): void {
		this.db
			.prepare('UPDATE accounts SET subscription_renews_at = ?, entitlements = ? WHERE id = ?')
			.run(renewsAt, entitlements, id);
	}

	/** Job creations counted since `since` (ms), for the daily and monthly allowances. */
	usageSince(id: string, since: number): number {
		const row = this.db
			.prepare('SELECT COUNT(*) AS used FROM usage WHERE account_id = ? AND at >= ?')
			.get(id, since) as { used: number };
		return row.used;
	}

	recordUsage(id: string, jobId: string, at: number): void {
		this.db
			.prepare('INSERT INTO usage (account_id, job_id, at) VALUES (?, ?, ?)')
			.run(id, jobId, at);
	}
}
