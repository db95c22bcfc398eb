/** What tests use to run the sandbox and steer it through its control API (/__sandbox). */
import { startSandbox as start, type RunningSandbox, type SandboxOptions } from '../../sandbox';

export type { RunningSandbox, SandboxOptions } from '../../sandbox';

/**
 * The sandbox as tests start it: its engine processes take jobs at once, without the warm-up that
 * speeds up each one's first job (a test's first job would wait for it, in every file). warmUp.test.ts
 * tests the warm-up, and the end-to-end run starts the sandbox with it, as deployed.
 */
export function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return start({ warmUpWorkers: false, ...options });
}

/** Where a sandbox answers and the token of its control API: all a file needs of a sandbox it shares. */
export type SandboxAddress = Pick<RunningSandbox, 'baseUrl' | 'origin' | 'adminToken'>;

export type Plan = 'free' | 'credits' | 'subscription' | 'internal';
export type Ability = 'formats:read' | 'usage:read' | 'jobs:read' | 'jobs:write';
export const allAbilities: Ability[] = ['formats:read', 'usage:read', 'jobs:read', 'jobs:write'];

export interface NewAccount {
	name?: string;
	plan: Plan;
	creditBalance?: number;
	previewRemaining?: number;
	dailyLimit?: number;
	monthlyLimit?: number;
	/** Subscription unlocks available. */
	entitlements?: number;
}

export interface Faults {
	rate429?: number;
	rate5xx?: number;
	latencyMs?: number;
	dropRate?: number;
	engineFailureRate?: number;
	/** Share of jobs whose engine thread runs out of memory (it dies and is replaced). */
	workerOutOfMemoryRate?: number;
	/** Jobs stay queued while true. */
	processingPaused?: boolean;
}

/** A typed client for the control API of one running sandbox. */
export class SandboxAdmin {
	constructor(private readonly sandbox: Pick<RunningSandbox, 'origin' | 'adminToken'>) {}

	async createAccount(account: NewAccount): Promise<{ id: string }> {
		return this.call('POST', '/accounts', { name: 'Test account', ...account });
	}

	/** Account and key in one step; abilities default to all four. */
	async createAccountWithKey(
		account: NewAccount,
		abilities: Ability[] = allAbilities,
	): Promise<{ accountId: string; keyId: string; key: string }> {
		const { id } = await this.createAccount(account);
		const key = await this.createKey(id, abilities);
		return { accountId: id, keyId: key.id, key: key.key };
	}

	async createKey(
		accountId: string,
		abilities: Ability[] = allAbilities,
		expiresInSeconds?: number,
	): Promise<{ id: string; key: string }> {
		return this.call('POST', '/keys', { accountId, abilities, expiresInSeconds });
	}

	/** A single-use sign-in link to the account pages (/account), valid 15 minutes. */
	async signInLink(accountId: string): Promise<{ url: string; expiresAt: string }> {
		return this.call('POST', `/accounts/${encodeURIComponent(accountId)}/sign-in-links`);
	}

	async revokeKey(id: string): Promise<void> {
		await this.call('DELETE', `/keys/${encodeURIComponent(id)}`);
	}

	/** FreeUsage of any account, read without spending a v1 request. */
	async usage(accountId: string): Promise<Record<string, unknown>> {
		const body = await this.call<{ freeUsage: Record<string, unknown> }>(
			'GET',
			`/accounts/${encodeURIComponent(accountId)}`,
		);
		return body.freeUsage;
	}

	async advanceClock(seconds: number): Promise<{ now: string }> {
		return this.call('POST', '/clock', { advanceSeconds: seconds });
	}

	async setFaults(faults: Faults): Promise<{ faults: Required<Faults> }> {
		return this.call('PUT', '/faults', faults);
	}

	async clearFaults(): Promise<void> {
		await this.setFaults({
			rate429: 0,
			rate5xx: 0,
			latencyMs: 0,
			dropRate: 0,
			engineFailureRate: 0,
			workerOutOfMemoryRate: 0,
			processingPaused: false,
		});
	}

	async reset(): Promise<void> {
		await this.call('POST', '/reset');
	}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.sandbox.origin}/__sandbox${path}`, {
			method,
			headers: {
				'X-Sandbox-Admin': this.sandbox.adminToken,
				Accept: 'application/json',
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`Sandbox control ${method} ${path} answered ${response.status}: ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}
}

/**
 * What a file may do on a sandbox it shares with other files: accounts and keys of its own, nothing that
 * reaches the whole service (faults, clock, reset).
 */
export type AccountsAdmin = Pick<
	SandboxAdmin,
	'createAccount' | 'createAccountWithKey' | 'createKey' | 'revokeKey' | 'usage' | 'signInLink'
>;

export function sandboxAdmin(sandbox: Pick<RunningSandbox, 'origin' | 'adminToken'>): SandboxAdmin {
	return new SandboxAdmin(sandbox);
}
