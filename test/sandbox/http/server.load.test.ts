import { burst, runLoad } from '../support/loadRun';
import { useSandbox } from '../../support/sandboxFixture';

const suite = useSandbox({ workers: 2 });

describe('concurrent clients (the small version of bench/sandbox-load.ts)', () => {
	it('accepts, runs and reports every job of 4 keys x 10 concurrent submissions, within the limits', async () => {
		const result = await runLoad(suite.sandbox, {
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
		const { key } = await suite.admin.createAccountWithKey({ plan: 'credits' });
		expect(await burst(suite.sandbox, key, 75)).toEqual({ 200: 60, 429: 15 });
	});
});
