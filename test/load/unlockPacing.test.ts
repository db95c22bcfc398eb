import { createWaitDownload, orderItems, runOrders, shopKey, useShop } from './support/shopOrders';
import { storedJobs } from './support/sandboxState';
import { TestClock, useTestClock } from '../support/testClock';

// The sandbox allows 10 unlocks a minute per key. The node and the sandbox share one driven clock: the
// Retry-After waits and the paced unlocks' minutes pass as soon as nothing else is going on (never while a
// request is answered or a job processed), so the five minutes of windows take the time the work takes.
const clock = new TestClock();
// The shop's fixture sets a 300 s timeout; this file sets its own after it, for two busy cores.
const shop = useShop({ time: clock });
useTestClock(clock, { busy: () => !shop.sandbox.atRest() });
jest.setTimeout(600_000);

const orders = 50;

describe("50 unlocks against the service's 10 unlocks a minute", () => {
	it(
		'all 50 orders are unlocked once each and downloaded; ' +
			'after the first 429 the node paces its unlocks',
		async () => {
			const key = await shopKey(shop, { plan: 'credits', creditBalance: 1000 });
			const cost = Number((await shop.admin.usage(key.accountId)).conversionCreditCost);
			const { run, requests, seconds } = await runOrders(
				shop,
				key,
				orderItems(orders),
				createWaitDownload(['outputs'], true),
			);
			const unlocks = requests.filter(
				(request) => request.route === 'POST /jobs/conversion/{id}/unlock',
			);
			const refused = unlocks.filter((request) => request.status === 429).length;
			console.log(
				`50 unlocks: ${unlocks.length} unlock requests, ${refused} answered ` +
					`429, ${requests.length} requests in ${seconds.toFixed(0)} s`,
			);

			expect(run.error).toBeUndefined();
			expect(
				run.items.filter((item) => item.json.error !== undefined).map((item) => item.json.error),
			).toEqual([]);
			expect(run.items.filter((item) => item.binary?.data !== undefined)).toHaveLength(orders);
			// Without pacing every unlock after the 10th meets a 429 first (40 or more); with it, only
			// the one that taught it.
			expect(refused).toBeGreaterThanOrEqual(1);
			expect(refused).toBeLessThanOrEqual(3);
			expect(unlocks.filter((request) => request.status !== 429 && request.status !== 200)).toEqual(
				[],
			);
			expect(unlocks.length - refused).toBe(orders);

			// The sandbox refuses an unlock (429) before it runs, so each job is unlocked and charged exactly once.
			const stored = storedJobs(shop.sandbox, key.accountId);
			expect(stored).toHaveLength(orders);
			for (const job of stored) {
				expect(job.events.unlocked).toBe(1);
				expect(job.downloadsUnlocked).toBe(true);
			}
			expect((await shop.admin.usage(key.accountId)).creditBalance).toBe(1000 - orders * cost);
		},
	);
});
