import { burst, runLoad } from './loadRun';
import { sandboxAdmin, startSandbox, type RunningSandbox } from '../support/sandbox';

// Generous: the suite shares two cores with other heavy runs (builds, n8n, benches).
jest.setTimeout(120_000);

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, workers: 2 });
});
afterAll(async () => sandbox.close());

describe('concurrent clients (the small version of bench/sandbox-load.ts)', () => {
	it('accepts, runs and reports every job of 4 keys x 10 concurrent submissions, within the limits', async () => {
		const result = await runLoad(sandbox, {
			keys: 4,
			jobsPerKey: 10,
			pollEveryMs: 1500,
			timeoutMs: 90000,
		});
		expect(result).toMatchObject({
			submitted: 40,
			accepted: 40,
			completed: 40,
			failed: 0,
			lost: [],
			duplicateIds: 0,
			unexpected429: 0,
		});
	}, 120000);

	it('lets exactly 60 of 75 simultaneous requests from one key through', async () => {
		const { key } = await sandboxAdmin(sandbox).createAccountWithKey({ plan: 'credits' });
		expect(await burst(sandbox, key, 75)).toEqual({ 200: 60, 429: 15 });
	});
});
