/** The one fixture builder of the sandbox suites: which sandboxes a test file runs against, started and closed for it. */
import {
	sandboxAdmin,
	startSandbox,
	type RunningSandbox,
	type SandboxAdmin,
	type SandboxOptions,
} from '../support/sandbox';

/** Generous: the suites share two cores with other heavy runs (builds, n8n, benches). */
const suiteTimeoutMs = 120_000;

export interface OwnSandboxes {
	/**
	 * A sandbox for the current test alone (its own clock, limits, faults or data folder), on a free
	 * port with one worker unless `options` say otherwise; closed after the test, or earlier by the test.
	 */
	own(options?: SandboxOptions): Promise<RunningSandbox>;
}

export interface SuiteSandbox extends OwnSandboxes {
	/** The sandbox every test of the file shares; started before the first test, closed after the last. */
	readonly sandbox: RunningSandbox;
	/** Its control API. */
	readonly admin: SandboxAdmin;
}

/** Sandboxes started by single tests only, each closed after its test. */
export function useOwnSandboxes(): OwnSandboxes {
	jest.setTimeout(suiteTimeoutMs);
	const started: RunningSandbox[] = [];
	afterEach(async () => {
		await Promise.all(started.splice(0).map((running) => running.close()));
	});
	return {
		async own(options: SandboxOptions = {}) {
			const running = await startSandbox({ port: 0, workers: 1, ...options });
			started.push(running);
			return running;
		},
	};
}

/** One sandbox shared by the file's tests (`options` as for startSandbox; a free port, one worker by default), plus `own()`. */
export function useSandbox(options: SandboxOptions = {}): SuiteSandbox {
	const owned = useOwnSandboxes();
	let shared: { sandbox: RunningSandbox; admin: SandboxAdmin } | undefined;
	beforeAll(async () => {
		const sandbox = await startSandbox({ port: 0, workers: 1, ...options });
		shared = { sandbox, admin: sandboxAdmin(sandbox) };
	});
	afterAll(async () => shared?.sandbox.close());
	const current = () => {
		if (!shared) throw new Error('The suite sandbox starts in beforeAll; use it inside tests.');
		return shared;
	};
	return {
		own: owned.own,
		get sandbox() {
			return current().sandbox;
		},
		get admin() {
			return current().admin;
		},
	};
}
