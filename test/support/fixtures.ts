/**
 * The one fixture builder of the suites that run against a real sandbox (action node, trigger, trust):
 * a sandbox started before a file's (or a describe block's) tests and closed after them, with its control client.
 */
import { sandboxAdmin, startSandbox } from './sandbox';
import type { RunningSandbox, SandboxAdmin, SandboxOptions } from './sandbox';

/** A handle that reads through to whatever `current()` returns when used, so it can be taken before the sandbox starts. */
function liveHandle<T extends object>(current: () => T): T {
	return new Proxy({} as T, {
		get: (_target, key) => {
			const target = current();
			const value = Reflect.get(target, key, target) as unknown;
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}

export interface SandboxFixture {
	/** The running sandbox (usable in tests and hooks, not at the top level of the file). */
	sandbox: RunningSandbox;
	admin: SandboxAdmin;
}

export function useSandbox(options: Partial<SandboxOptions> = {}): SandboxFixture {
	const state: { sandbox?: RunningSandbox; admin?: SandboxAdmin } = {};
	beforeAll(async () => {
		state.sandbox = await startSandbox({ port: 0, workers: 2, ...options });
		state.admin = sandboxAdmin(state.sandbox);
	});
	afterAll(async () => {
		await state.sandbox?.close();
	});
	const started = <T>(value: T | undefined): T => {
		if (value === undefined) throw new Error('The sandbox has not started: use it inside a test or a hook');
		return value;
	};
	return {
		sandbox: liveHandle(() => started(state.sandbox)),
		admin: liveHandle(() => started(state.admin)),
	};
}
