import { createHash } from 'node:crypto';

import type { INodeExecutionData } from 'n8n-workflow';

import { binaryBuffer } from '../support/binaryData';
import { captureLogs } from './support/capturedLogs';
import type { SeenRequest } from '../support/variantService';
import { createWaitDownload, orderItems, runOrders, shopKey, useShop } from './support/shopOrders';
import { storedJobs } from './support/sandboxState';
import { TestClock, useTestClock } from '../support/testClock';

// One driven clock for the node and the sandbox: the 500 ms latencies, the `Retry-After: 1` waits, the backoffs,
// the rate windows and the waits for jobs pass as soon as nothing else is going on (never while a request is
// answered or a job processed), so the ~300 tries take the time the work takes, not 4-7 minutes of waiting.
const clock = new TestClock();
// The shop's fixture sets a 300 s timeout; this file sets its own after it, for two busy cores.
const shop = useShop({ time: clock });
useTestClock(clock, { busy: () => !shop.sandbox.atRest() });
jest.setTimeout(900_000);

const networkTrouble = { rate429: 0.3, rate5xx: 0.1, dropRate: 0.05, latencyMs: 500 };
const orders = 50;

function sha256(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex');
}

describe('a shop sends 50 orders at once under 30% 429s, 10% 5xx, 5% dropped connections and 500 ms latency', () => {
	it(
		'Create -> Wait -> Unlock -> Download accounts for every order; a re-run of the failed ' +
			'items completes them, nothing twice',
		async () => {
			const logs = captureLogs();
			const key = await shopKey(shop, { plan: 'credits', creditBalance: 1000 });
			const cost = Number((await shop.admin.usage(key.accountId)).conversionCreditCost);
			const input = orderItems(orders);
			const fileNameOf = (order: number) => input[order].binary!.data.fileName;
			/** The item that carries each order's machine file, once one run delivered it. */
			const delivered = new Map<number, INodeExecutionData>();
			/** Every item of every run, searched for the key at the end. */
			const everyItem: INodeExecutionData[] = [];
			let reruns = 0;
			const requests: SeenRequest[] = [];
			let firstDelivered = 0;
			let firstSeconds = 0;
			try {
				await shop.admin.setFaults(networkTrouble);
				const first = await runOrders(shop, key, input, createWaitDownload(['outputs'], true));
				everyItem.push(...first.run.items);
				requests.push(...first.requests);
				firstSeconds = first.seconds;

				// Every order is accounted for by the first run: its file, or an error that says what happened.
				expect(first.run.error).toBeUndefined();
				const pairedOrders = first.run.items.map(
					(item) => (item.pairedItem as { item: number }).item,
				);
				expect([...pairedOrders].sort((a, b) => a - b)).toEqual(input.map((_, order) => order));
				for (const [index, item] of first.run.items.entries()) {
					if (item.binary?.data) delivered.set(pairedOrders[index], item);
					else {
						expect(typeof item.json.error).toBe('string');
						expect(String(item.json.description ?? '')).not.toBe('');
					}
				}

				firstDelivered = delivered.size;
				// What a user does with the failed items: orders without a job are created again, the others waited for.
				for (; delivered.size < orders && reruns < 8; reruns++) {
					const stored = storedJobs(shop.sandbox, key.accountId);
					const missing = input.map((_, order) => order).filter((order) => !delivered.has(order));
					const withoutJob = missing.filter(
						(order) => !stored.some((job) => job.title === fileNameOf(order)),
					);
					const withJob = missing.filter((order) => !withoutJob.includes(order));
					if (withoutJob.length > 0) {
						const again = await runOrders(
							shop,
							key,
							withoutJob.map((order) => input[order]),
							createWaitDownload(['outputs'], true),
						);
						everyItem.push(...again.run.items);
						requests.push(...again.requests);
						again.run.items.forEach((item) => {
							if (item.binary?.data)
								delivered.set(withoutJob[(item.pairedItem as { item: number }).item], item);
						});
					}
					if (withJob.length > 0) {
						const jobIdOf = (order: number) =>
							stored.find((job) => job.title === fileNameOf(order))!.id;
						const again = await runOrders(
							shop,
							key,
							withJob.map((order) => ({ json: { id: jobIdOf(order) } })),
							{
								resource: 'job',
								operation: 'waitForCompletion',
								jobId: '={{ $json.id }}',
								workflow: 'conversion',
								timeout: 600,
								downloadResults: ['outputs'],
								unlockBeforeDownload: true,
							},
						);
						everyItem.push(...again.run.items);
						requests.push(...again.requests);
						again.run.items.forEach((item) => {
							if (item.binary?.data)
								delivered.set(withJob[(item.pairedItem as { item: number }).item], item);
						});
					}
				}
			} finally {
				await shop.admin.clearFaults();
				logs.stop();
			}

			const answered = (status: number) =>
				requests.filter((request) => request.status === status).length;
			console.log(
				`50 orders under faults: the first run delivered ${firstDelivered} ` +
					`in ${firstSeconds.toFixed(0)} s, ${reruns} re-run(s) the rest; ` +
					`${requests.length} requests: ${answered(429)} answered 429, ${answered(503)} 503, ${answered(0)} dropped`,
			);

			// The sandbox's own records: one job per order, each created once, unlocked once and charged once.
			const stored = storedJobs(shop.sandbox, key.accountId);
			expect(stored.map((job) => job.title).sort()).toEqual(
				input.map((_, order) => fileNameOf(order)).sort(),
			);
			for (const job of stored) {
				expect(job.status).toBe('completed');
				expect(job.events.created).toBe(1);
				expect(job.events.unlocked).toBe(1);
				expect(job.downloadsUnlocked).toBe(true);
			}
			expect((await shop.admin.usage(key.accountId)).creditBalance).toBe(1000 - orders * cost);

			// Every order's machine file arrived intact: the bytes hash to what the sandbox stored for that order's job.
			expect(delivered.size).toBe(orders);
			for (const [order, item] of delivered) {
				const job = stored.find((candidate) => candidate.title === fileNameOf(order))!;
				expect(item.json.id).toBe(job.id);
				expect(sha256(await binaryBuffer(item.binary!.data))).toBe(job.outputChecksum);
			}

			// The key is in no output item, error or log line, though the logs did record the retries.
			const everything = JSON.stringify(everyItem) + logs.lines.join('\n');
			expect(logs.lines.join('\n')).toMatch(
				/Embroidery API (GET|POST) \/jobs\S*: (HTTP \d+|no answer)/,
			);
			expect(everything).not.toContain(key.apiKey);
		},
	);
});
