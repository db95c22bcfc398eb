import type { Plan } from './accounts';
import type { Workflow } from './jobs';

/** What unlocking one job costs, in credits, when no entitlement covers it. */
export const creditCosts: Record<Workflow, number> = { conversion: 1, digitising: 2 };

export type UnlockMethod = 'internal' | 'subscription' | 'credits';

/** What an account holds that can pay for an unlock. */
export interface Purse {
	plan: Plan;
	/** Subscription unlocks left in the current period. */
	entitlements: number;
	creditBalance: number;
}

/** How an unlock would be paid: `method` null when nothing covers it; `credits` is what it costs in credits. */
export interface UnlockPayment {
	method: UnlockMethod | null;
	credits: number;
}

/**
 * The payment order, the one place it is written: an internal account pays nothing, then a subscription
 * entitlement covers the unlock, then credits; nothing is ever bought.
 */
export function unlockPayment(purse: Purse, workflow: Workflow): UnlockPayment {
	if (purse.plan === 'internal') return { method: 'internal', credits: 0 };
	if (purse.plan === 'subscription' && purse.entitlements > 0)
		return { method: 'subscription', credits: 0 };
	const cost = creditCosts[workflow];
	return { method: purse.creditBalance >= cost ? 'credits' : null, credits: cost };
}

/** "1 credit", "2 credits". */
export function creditsText(credits: number): string {
	return `${credits} credit${credits > 1 ? 's' : ''}`;
}
