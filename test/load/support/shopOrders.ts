import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../support/nodeRun';
import type { InputItem, NodeRun } from '../../support/nodeRun';
import { liveHandle, newCredentials, useSandbox } from '../../support/sandboxFixture';
import type { AccountCredentials } from '../../support/sandboxFixture';
import { sandboxAdmin, startSandbox } from '../../support/sandbox';
import type {
	NewAccount,
	RunningSandbox,
	SandboxAdmin,
	SandboxOptions,
} from '../../support/sandbox';
import { startVariantService } from '../../support/variantService';
import type { SeenRequest, VariantService } from '../../support/variantService';

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

/** A sandbox with the recording proxy (variantService.ts) in front: every request the node makes is counted. */
export interface Shop {
	sandbox: RunningSandbox;
	admin: SandboxAdmin;
	proxy: VariantService;
}

/** The shop of a load suite's file, on the shared fixture builder: opened before its tests, closed after them. */
export function useShop(options: Partial<SandboxOptions> = {}): Shop {
	const { sandbox, admin } = useSandbox(options);
	const state: { proxy?: VariantService } = {};
	beforeAll(async () => {
		state.proxy = await startVariantService(sandbox.origin);
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
	const proxy = await startVariantService(sandbox.origin);
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

/** The node's credentials of a shop's account: its base URL is the proxy's v1 root, so its requests are counted. */
export type ShopKey = AccountCredentials;

/**
 * A fresh account and key behind the proxy (so rate windows never carry over between runs), with room for a
 * load run's requests; internal accounts unlock free.
 */
export async function shopKey(
	shop: Shop,
	account: NewAccount = { plan: 'internal' },
): Promise<ShopKey> {
	return await newCredentials(shop.admin, shop.proxy.baseUrl, {
		dailyLimit: 1000,
		monthlyLimit: 10000,
		...account,
	});
}

export interface OrdersRun {
	run: NodeRun;
	requests: SeenRequest[];
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
