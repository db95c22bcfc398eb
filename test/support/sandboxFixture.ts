/**
 * The one fixture builder of every suite that runs against a real sandbox (sandbox, action node, trigger,
 * trust, editor): the jest worker's sandbox for files that need only a plain service, a sandbox started
 * before a file's (or a describe block's) tests and closed after them, with its control client and the node's
 * credentials of a fresh account, plus sandboxes of a single test's own, and the variant service put in front
 * of one.
 */
import type { ApiCredentials } from './n8nCredentials';
import { allAbilities, sandboxAdmin, startSandbox } from './sandbox';
import type {
	AccountsAdmin,
	Ability,
	NewAccount,
	RunningSandbox,
	SandboxAddress,
	SandboxAdmin,
	SandboxOptions,
} from './sandbox';
import { startVariantService, type VariantService } from './variantService';
import { workerSandbox } from './workerSandboxes';
import { defaultRetryPolicy } from '../../nodes/Embroidery/transport';

/**
 * Generous, and never below what a suite sets for itself (up to 300 s): the suites share two cores
 * with other heavy runs.
 */
const suiteTimeoutMs = 300_000;

export interface OwnSandboxes {
	/**
	 * A sandbox for the current test alone (its own clock, limits, faults or data folder), on a free
	 * port with one worker unless `options` say otherwise; closed after the test, or earlier by the test.
	 */
	own(options?: Partial<SandboxOptions>): Promise<RunningSandbox>;
}

/** Sandboxes started by single tests only, each closed after its test. */
export function useOwnSandboxes(): OwnSandboxes {
	jest.setTimeout(suiteTimeoutMs);
	const started: RunningSandbox[] = [];
	afterEach(async () => {
		await Promise.all(started.splice(0).map((running) => running.close()));
	});
	return {
		async own(options: Partial<SandboxOptions> = {}) {
			const running = await startSandbox({ port: 0, workers: 1, ...options });
			started.push(running);
			return running;
		},
	};
}

/**
 * A handle that reads through to whatever `current()` returns when used, so it can be taken before
 * the sandbox starts.
 */
export function liveHandle<T extends object>(current: () => T): T {
	return new Proxy({} as T, {
		get: (_target, key) => {
			const target = current();
			const value = Reflect.get(target, key, target) as unknown;
			return typeof value === 'function'
				? (value as (...args: unknown[]) => unknown).bind(target)
				: value;
		},
	});
}

/** The node's credentials of one account and key, with their ids for the control API. */
export type AccountCredentials = ApiCredentials & { accountId: string; keyId: string };

/**
 * A fresh account and key as the node's credentials (its own rate window, so tests never meet), on `baseUrl`:
 * the sandbox's v1 root, or a proxy's in front of it. Abilities default to all four.
 */
export async function newCredentials(
	admin: AccountsAdmin,
	baseUrl: string,
	account: NewAccount = { plan: 'credits' },
	abilities: Ability[] = allAbilities,
): Promise<AccountCredentials> {
	const created = await admin.createAccountWithKey(account, abilities);
	return { apiKey: created.key, baseUrl, accountId: created.accountId, keyId: created.keyId };
}

/** What both sandbox fixtures give: the node's credentials of a fresh account and key on their sandbox. */
export interface Credentials {
	credentials(account?: NewAccount, abilities?: Ability[]): Promise<AccountCredentials>;
}

function credentialsOn(fixture: { sandbox: SandboxAddress; admin: AccountsAdmin }): Credentials {
	return {
		credentials: (account, abilities) =>
			newCredentials(fixture.admin, fixture.sandbox.baseUrl, account, abilities),
	};
}

export interface SandboxFixture extends OwnSandboxes, Credentials {
	/** The running sandbox (usable in tests and hooks, not at the top level of the file). */
	sandbox: RunningSandbox;
	admin: SandboxAdmin;
}

/**
 * One sandbox shared by the file's (or describe block's) tests, two workers unless `options` say
 * otherwise, plus `own()`.
 */
export function useSandbox(options: Partial<SandboxOptions> = {}): SandboxFixture {
	const owned = useOwnSandboxes();
	const state: { sandbox?: RunningSandbox; admin?: SandboxAdmin } = {};
	beforeAll(async () => {
		state.sandbox = await startSandbox({ port: 0, workers: 2, ...options });
		state.admin = sandboxAdmin(state.sandbox);
	});
	afterAll(async () => {
		await state.sandbox?.close();
	});
	const sandbox = liveHandle(() => started(state.sandbox));
	const admin = liveHandle(() => started(state.admin));
	return { own: owned.own, sandbox, admin, ...credentialsOn({ sandbox, admin }) };
}

export interface WorkerSandboxFixture extends Credentials {
	/** The jest worker's sandbox (usable in tests and hooks, not at the top level of the file). */
	sandbox: SandboxAddress;
	/** Accounts and keys only: the worker's later files share the sandbox's faults, clock and data. */
	admin: AccountsAdmin;
}

/**
 * The sandbox of the jest worker (test/support/workerSandboxes.ts), shared with the worker's other files, for
 * a file whose tests make their own accounts and change nothing service-wide; `useSandbox` otherwise.
 */
export function useWorkerSandbox(): WorkerSandboxFixture {
	jest.setTimeout(suiteTimeoutMs);
	const state: { sandbox?: SandboxAddress; admin?: AccountsAdmin } = {};
	beforeAll(async () => {
		state.sandbox = await workerSandbox();
		state.admin = sandboxAdmin(state.sandbox);
	});
	const sandbox = liveHandle(() => started(state.sandbox));
	const admin = liveHandle(() => started(state.admin));
	return { sandbox, admin, ...credentialsOn({ sandbox, admin }) };
}

function started<T>(value: T | undefined): T {
	if (value === undefined)
		throw new Error('The sandbox has not started: use it inside a test or a hook');
	return value;
}

/**
 * A variant of the service (test/support/variantService.ts) in front of the sandbox of `sandbox` for the
 * file's tests: its rules reset after each test, together with the settings objects in `restoreAfterEach`.
 * Retries of a failing request wait 20 ms instead of seconds (the count of tries stays).
 */
export function useVariantService(
	sandbox: SandboxAddress,
	restoreAfterEach: object[] = [],
): VariantService {
	const state: { variant?: VariantService } = {};
	const savedPolicy = { ...defaultRetryPolicy };
	const saved = restoreAfterEach.map((settings) => ({ ...settings }));
	beforeAll(async () => {
		state.variant = await startVariantService(sandbox.origin);
		Object.assign(defaultRetryPolicy, { baseDelayMs: 20, maxJitterMs: 5 });
	});
	afterEach(() => {
		state.variant?.reset();
		restoreAfterEach.forEach((settings, index) => Object.assign(settings, saved[index]));
	});
	afterAll(async () => {
		Object.assign(defaultRetryPolicy, savedPolicy);
		await state.variant?.close();
	});
	return liveHandle(() => {
		if (!state.variant)
			throw new Error('The variant service has not started: use it inside a test or a hook');
		return state.variant;
	});
}
