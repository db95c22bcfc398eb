/**
 * The Embroidery Trigger's requests per poll with 50 jobs in flight, run by n8n-core's PollTriggerExecutor
 * against the sandbox behind a counting proxy. Run: npm run bench (or tsx bench/trigger-requests.ts).
 */
import { ActiveTriggerHarness } from '../test/support/triggerRun';
import { countByRoute } from '../test/support/serviceRoutes';
import { openShop, shopKey } from '../test/load/support/shopOrders';
import { Api } from '../test/sandbox/support/apiClient';
import { fixture } from '../test/support/embroideryFiles';
import { fixed, printTable } from './support/table';

const inFlight = 50;
const quietPolls = 10;

export async function triggerRequestsBenchmark(): Promise<void> {
	const shop = await openShop();
	try {
		const key = await shopKey(shop);
		// The orders come from another key of the same account, so only the trigger's requests are counted.
		const orders = new Api(shop.sandbox, (await shop.admin.createKey(key.accountId)).key);
		await shop.admin.setFaults({ processingPaused: true });
		for (let start = 0; start < inFlight; start += 10) {
			const files = Array.from({ length: 10 }, (_, index) => ({
				field: 'files[]',
				name: `order-${start + index}.dst`,
				bytes: fixture('Star.DST'),
			}));
			const answer = await orders.createJob({ workflow: 'conversion', format: 'pes' }, files);
			if (answer.status !== 202) throw new Error(`POST /jobs answered ${answer.status}`);
		}
		const trigger = new ActiveTriggerHarness({
			parameters: { events: ['completed', 'failed'], workflow: 'both' },
			credentials: { apiKey: key.apiKey, baseUrl: key.baseUrl },
		});
		shop.proxy.take();
		await trigger.activate();
		const activation = shop.proxy.take();
		for (let poll = 0; poll < quietPolls; poll++) await trigger.poll();
		const quiet = shop.proxy.take();

		await shop.admin.setFaults({ processingPaused: false });
		let ending = [];
		const emitted = new Set<string>();
		let endingPolls = 0;
		while (emitted.size < inFlight && endingPolls < 60) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			for (const item of (await trigger.poll()) ?? []) emitted.add(String(item.json.id));
			endingPolls++;
		}
		ending = shop.proxy.take();
		if (emitted.size !== inFlight)
			throw new Error(`The trigger emitted ${emitted.size} of ${inFlight} endings`);

		const describe = (requests: typeof quiet) =>
			Object.entries(countByRoute(requests))
				.map(([route, count]) => `${count} ${route}`)
				.join(', ');
		printTable(
			`Embroidery Trigger: requests per poll with ${inFlight} jobs in flight (n8n-core PollTriggerExecutor, sandbox)`,
			['phase', 'polls', 'requests', 'per poll', '429s', 'what'],
			[
				[
					'activation',
					1,
					activation.length,
					fixed(activation.length),
					activation.filter((r) => r.status === 429).length,
					describe(activation),
				],
				[
					`${inFlight} queued`,
					quietPolls,
					quiet.length,
					fixed(quiet.length / quietPolls),
					quiet.filter((r) => r.status === 429).length,
					describe(quiet),
				],
				[
					`${inFlight} ending`,
					endingPolls,
					ending.length,
					fixed(ending.length / endingPolls),
					ending.filter((r) => r.status === 429).length,
					describe(ending),
				],
			],
			[
				`all ${inFlight} endings emitted once each; a job that fails costs one GET for its ` +
					`failure code, a completed one none`,
			],
		);
	} finally {
		await shop.close();
	}
}

if (require.main === module) {
	triggerRequestsBenchmark().catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	});
}
