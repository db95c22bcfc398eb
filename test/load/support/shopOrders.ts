import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../support/nodeRun';
import type { InputItem, NodeRun } from '../../support/nodeRun';
import { liveHandle, useSandbox } from '../../support/sandboxFixture';
import { sandboxAdmin, startSandbox } from '../../support/sandbox';
import type {
	NewAccount,
	RunningSandbox,
	SandboxAdmin,
	SandboxOptions,
} from '../../support/sandbox';
import { startCountingProxy } from './countingProxy';
import type { CountedRequest, CountingProxy } from './countingProxy';

import { fixture as embroideryFile } from '../../support/embroideryFiles';
import { createAndWait } from '../../support/jobParameters';

/** One shop order: a machine file in the item's `data` field, named after the order. */
export function orderItems(count: number, fixture = 'Star.DST'): InputItem[] {
	const bytes = embroideryFile(fixture);
	const extension = path.extname(fixture);
	return Array.from({ length: count }, (_, index) => ({
		json: { order: index + 1 },
		binary: {
			data: {
				data: bytes,
				fileName: `order-${index + 1}${extension}`,
				mimeType: 'application/octet-stream',
			},
		},
	}));
}

/** Create -> wait -> download in one node, batching ten files per request, as a shop workflow would. */
export function createWaitDownload(
	download: Array<'outputs' | 'preview'>,
	unlock = false,
): INodeParameters {
	return createAndWait({
		timeout: 600,
		downloadResults: download,
		unlockBeforeDownload: unlock,
		options: { batching: 'combine' },
	});
}

/** A sandbox with a counting proxy in front: every request the node makes is seen and counted. */
export interface Shop {
	sandbox: RunningSandbox;
	admin: SandboxAdmin;
	proxy: CountingProxy;
}

/** The shop of a load suite's file, on the shared fixture builder: opened before its tests, closed after them. */
export function useShop(options: Partial<SandboxOptions> = {}): Shop {
	const { sandbox, admin } = useSandbox(options);
	const state: { proxy?: CountingProxy } = {};
	beforeAll(async () => {
		state.proxy = await startCountingProxy(sandbox.origin);
	});
	afterAll(async () => {
		await state.proxy?.close();
	});
	return {
		sandbox,
		admin,
		proxy: liveHandle(() => {
			if (!state.proxy) throw new Error('The shop has not opened: use it inside a test or a hook');
			return state.proxy;
		}),
	};
}

/** A shop for a script outside jest (bench/), which closes it itself. */
export async function openShop(
	options: Partial<SandboxOptions> = {},
): Promise<Shop & { close(): Promise<void> }> {
	const sandbox = await startSandbox({ port: 0, workers: 2, ...options });
	const proxy = await startCountingProxy(sandbox.origin);
	return {
		sandbox,
		admin: sandboxAdmin(sandbox),
		proxy,
		close: async () => {
			await proxy.close();
			await sandbox.close();
		},
	};
}

export interface ShopKey {
	apiKey: string;
	/** The proxy's v1 root, so the node's requests are counted. */
	baseUrl: string;
	accountId: string;
	keyId: string;
}

/** A fresh account and key (so rate windows never carry over between runs); internal accounts unlock free. */
export async function shopKey(
	shop: Shop,
	account: NewAccount = { plan: 'internal' },
): Promise<ShopKey> {
	const created = await shop.admin.createAccountWithKey({
		dailyLimit: 1000,
		monthlyLimit: 10000,
		...account,
	});
	return {
		apiKey: created.key,
		baseUrl: shop.proxy.baseUrl,
		accountId: created.accountId,
		keyId: created.keyId,
	};
}

export interface OrdersRun {
	run: NodeRun;
	requests: CountedRequest[];
	seconds: number;
}

/** Runs the real Embroidery node through n8n-core on the given orders; the requests it made come back with it. */
export async function runOrders(
	shop: Shop,
	key: ShopKey,
	input: InputItem[],
	parameters: INodeParameters,
	onError: 'stopWorkflow' | 'continueRegularOutput' = 'continueRegularOutput',
): Promise<OrdersRun> {
	shop.proxy.take();
	const started = performance.now();
	const run = await runNode({
		parameters,
		input,
		onError,
		credentials: { apiKey: key.apiKey, baseUrl: key.baseUrl },
	});
	return { run, requests: shop.proxy.take(), seconds: (performance.now() - started) / 1000 };
}
