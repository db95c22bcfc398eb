import type { INodeExecutionData } from 'n8n-workflow';

import { binaryBuffer } from '../support/binaryData';
import { Api } from '../sandbox/support/apiClient';
import { captureLogs } from './support/capturedLogs';
import { createWaitDownload, orderItems, runOrders, shopKey, useShop } from './support/shopOrders';
import type { ShopKey } from './support/shopOrders';
import { storedJobs } from './support/sandboxState';
import { TestClock, useTestClock } from '../support/testClock';

jest.setTimeout(180_000);

// One driven clock for the node and the sandbox: waits for jobs, Retry-After waits and backoffs pass as soon
// as nothing else is going on (never while a request is answered or a job processed).
const clock = new TestClock();
const shop = useShop({ sourceTtlSeconds: 3600, time: clock });
useTestClock(clock, { busy: () => !shop.sandbox.atRest() });
let logs: ReturnType<typeof captureLogs>;
const keys: string[] = [];

beforeAll(() => {
	logs = captureLogs();
});

afterAll(() => {
	logs?.stop();
});

afterEach(() => {
	shop.proxy.reset();
});

async function newKey(
	account: Parameters<typeof shopKey>[1] = { plan: 'internal' },
): Promise<ShopKey> {
	const key = await shopKey(shop, account);
	keys.push(key.apiKey);
	return key;
}

/** Orders created outside the node (with their own key), completed or failed as the engine decides. */
async function createdJobs(key: ShopKey, count: number): Promise<string[]> {
	const api = new Api(shop.sandbox, (await shop.admin.createKey(key.accountId)).key);
	const files = orderItems(count).map((item, index) => ({
		field: 'files[]',
		name: `order-${index + 1}.dst`,
		bytes: item.binary!.data.data,
	}));
	const answer = await api.createJob({ workflow: 'conversion', format: 'pes' }, files);
	if (answer.status !== 202)
		throw new Error(`POST /jobs answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	const ids = (answer.body.jobs as Array<{ id: string }>).map((job) => job.id);
	// Generous: a few conversions, on 2 cores that other runs share.
	for (let tries = 0; tries < 480; tries++) {
		const stored = storedJobs(shop.sandbox, key.accountId);
		if (
			ids.every((id) =>
				['completed', 'failed'].includes(stored.find((job) => job.id === id)?.status ?? ''),
			)
		)
			return ids;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error('The jobs did not end within 120 s');
}

function errorOf(item: INodeExecutionData): string {
	return `${String(item.json.error ?? '')} ${String(item.json.description ?? '')}`;
}

function expectNoKeyIn(items: INodeExecutionData[], key: ShopKey): void {
	const text = JSON.stringify(items);
	expect(text).not.toContain(key.apiKey);
}

describe('per-item errors while the other items go on', () => {
	it('an expired signed URL: that item says so, the items with fresh URLs are downloaded', async () => {
		const key = await newKey();
		const [stale, ...fresh] = await createdJobs(key, 3);
		const api = new Api(shop.sandbox, key.apiKey);
		const urlOf = async (id: string) =>
			(await api.get(`/jobs/conversion/${id}`)).body.job.artifacts[0].previewUrl as string;
		const staleUrl = (await urlOf(stale)).replace(shop.sandbox.origin, shop.proxy.origin);
		await shop.admin.advanceClock(601);
		const freshUrls = await Promise.all(
			fresh.map(async (id) => (await urlOf(id)).replace(shop.sandbox.origin, shop.proxy.origin)),
		);

		const { run } = await runOrders(
			shop,
			key,
			[staleUrl, ...freshUrls].map((url) => ({ json: { url } })),
			{
				resource: 'file',
				operation: 'download',
				url: '={{ $json.url }}',
				binaryPropertyName: 'data',
			},
		);

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		expect(errorOf(run.items[0])).toMatch(/signed URL has expired/);
		for (const item of run.items.slice(1)) {
			expect(item.json.error).toBeUndefined();
			expect((await binaryBuffer(item.binary!.data)).length).toBeGreaterThan(100);
		}
		expectNoKeyIn(run.items, key);
	});

	it(
		'an expired source: Retry of that job says it expired and cannot be retried, the others are ' +
			'queued again',
		async () => {
			const key = await newKey();
			await shop.admin.setFaults({ engineFailureRate: 1 });
			try {
				const [old] = await createdJobs(key, 1);
				await shop.admin.advanceClock(3000);
				const recent = await createdJobs(key, 2);
				// The first source is now 3600 s old: past the sandbox's source lifetime; the two others are not.
				await shop.admin.advanceClock(700);
				await shop.admin.setFaults({ engineFailureRate: 0, processingPaused: true });
				const { run } = await runOrders(
					shop,
					key,
					[old, ...recent].map((id) => ({ json: { id } })),
					{ resource: 'job', operation: 'retry', jobId: '={{ $json.id }}', workflow: 'conversion' },
				);

				expect(run.error).toBeUndefined();
				expect(run.items).toHaveLength(3);
				expect(run.items[0].json.httpCode).toBe('410');
				expect(errorOf(run.items[0])).toMatch(/source file has expired/);
				expect(errorOf(run.items[0])).toMatch(/Create a new job/);
				for (const item of run.items.slice(1))
					expect(item.json).toMatchObject({ status: 'queued' });
				expect(storedJobs(shop.sandbox, key.accountId).map((job) => job.status)).toEqual([
					'failed',
					'queued',
					'queued',
				]);
				expectNoKeyIn(run.items, key);
			} finally {
				await shop.admin.clearFaults();
			}
		},
	);

	it(
		'a key revoked mid-run: the items done before keep their files, each later item gets the ' +
			'authentication error',
		async () => {
			const key = await newKey();
			const ids = await createdJobs(key, 5);
			let downloads = 0;
			shop.proxy.on(async (request) => {
				if (request.route === 'GET /jobs/conversion/{id}' && ++downloads === 3)
					await shop.admin.revokeKey(key.keyId);
				return undefined;
			});
			const { run } = await runOrders(
				shop,
				key,
				ids.map((id) => ({ json: { id } })),
				{
					resource: 'job',
					operation: 'download',
					jobId: '={{ $json.id }}',
					workflow: 'conversion',
					files: ['preview'],
				},
			);

			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(5);
			for (const item of run.items.slice(0, 2))
				expect(item.binary?.preview ?? item.binary?.data).toBeDefined();
			for (const item of run.items.slice(2)) {
				expect(item.json.httpCode).toBe('401');
				expect(errorOf(item)).toMatch(/Authentication failed/);
				expect(errorOf(item)).toMatch(/revoked/);
			}
			expectNoKeyIn(run.items, key);
		},
	);

	it(
		'credits running out mid-batch: the unlocks paid for are downloaded, the others say credits ' +
			'are missing',
		async () => {
			const probe = await newKey({ plan: 'credits', creditBalance: 0 });
			const cost = Number((await shop.admin.usage(probe.accountId)).conversionCreditCost);
			const key = await newKey({ plan: 'credits', creditBalance: 3 * cost });
			const { run } = await runOrders(
				shop,
				key,
				orderItems(5),
				createWaitDownload(['outputs'], true),
			);

			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(5);
			const downloaded = run.items.filter((item) => item.binary?.data !== undefined);
			const refused = run.items.filter((item) => item.json.error !== undefined);
			expect(downloaded).toHaveLength(3);
			expect(refused).toHaveLength(2);
			for (const item of refused) {
				expect(item.json.httpCode).toBe('422');
				expect(errorOf(item)).toMatch(/credit/i);
			}
			const stored = storedJobs(shop.sandbox, key.accountId);
			expect(stored).toHaveLength(5);
			expect(stored.filter((job) => job.downloadsUnlocked)).toHaveLength(3);
			expect(stored.every((job) => (job.events.unlocked ?? 0) <= 1)).toBe(true);
			expect((await shop.admin.usage(key.accountId)).creditBalance).toBe(0);
			expectNoKeyIn(run.items, key);
		},
	);
});

describe('one job whose detail cannot be read while the others finish (Include Full Job)', () => {
	it("fails only that job's item; the other orders are waited for and downloaded", async () => {
		const key = await newKey();
		let unreadable: string | undefined;
		shop.proxy.on((request) => {
			if (request.route !== 'GET /jobs/conversion/{id}') return undefined;
			const id = request.url.split('?')[0].split('/').pop();
			unreadable ??= id;
			return id === unreadable ? { status: 503 } : undefined;
		});
		const { run } = await runOrders(shop, key, orderItems(3), {
			...createWaitDownload(['preview']),
			includeFullJob: true,
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		const failed = run.items.filter((item) => item.json.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.httpCode).toBe('503');
		expect(errorOf(failed[0])).toMatch(/kept failing after 5 tries/);
		const downloaded = run.items.filter((item) => item.binary?.preview !== undefined);
		expect(downloaded).toHaveLength(2);
		expect(downloaded.map((item) => item.json.id)).not.toContain(unreadable);
		expectNoKeyIn(run.items, key);
	});
});

describe('the API keys of these runs', () => {
	it('appear in no log line', () => {
		const lines = logs.lines.join('\n');
		expect(keys.length).toBeGreaterThan(0);
		for (const key of keys) expect(lines).not.toContain(key);
	});
});
