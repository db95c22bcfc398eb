/**
 * The Shopify and WooCommerce templates (examples/shopify-order-to-machine-file.json and
 * examples/woocommerce-order-to-machine-file.json) published in a real n8n under `n8n start`, fed
 * deliveries shaped like the platforms' own: an orders/create (Shopify) or order.created (WooCommerce)
 * body, sent with the platform's headers and its signature, base64 HMAC-SHA256 of the raw body. A
 * signed delivery produces the machine file on disk; a mis-signed, unsigned or altered one is
 * refused with 401 and creates nothing and spends nothing at the service (counted on an account of
 * its own); a redelivered order makes nothing twice. The shop-order example is published beside them
 * (one `n8n start` for the three) and refuses what it must.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { waitForExecutions } from '../../scripts/demo';
import {
	exampleIds,
	localShop,
	readExamples,
	serveSampleFiles,
	signBody,
	useCredential,
	withLocalValues,
} from '../../scripts/examples';
import {
	fetchN8n,
	sleep,
	type CredentialExport,
	type LocalN8n,
	type WorkflowExport,
} from '../../scripts/n8n';
import { measurePattern, readPattern } from '../../sandbox/engine';
import { sandboxAdmin } from '../support/sandbox';
import { openServedEnvironment, type SandboxInfo } from './support/environment';

interface Shop {
	slug: string;
	workflowId: string;
	path: string;
	signatureHeader: string;
	headers: Record<string, string>;
	/** The raw body, written as the platform sends it (Shopify's ids are larger than a JavaScript number holds). */
	order: (artworkUrl: string) => string;
	savedAs: string;
}

const shopify: Shop = {
	slug: 'shopify-order-to-machine-file',
	workflowId: exampleIds.shopify,
	path: 'shopify-orders-create',
	signatureHeader: 'X-Shopify-Hmac-Sha256',
	headers: {
		'X-Shopify-Topic': 'orders/create',
		'X-Shopify-Shop-Domain': 'stitch-studio.myshopify.com',
		'X-Shopify-API-Version': '2025-07',
		'X-Shopify-Webhook-Id': randomUUID(),
		'X-Shopify-Triggered-At': '2026-11-25T10:00:00.000Z',
	},
	order: (artworkUrl) =>
		`{"id":820982911946154508,"admin_graphql_api_id":"gid://shopify/Order/820982911946154508",` +
		`"name":"#1042","order_number":1042,"email":"ada@example.com","created_at":"2026-11-25T11:0` +
		`0:00+01:00","currency":"EUR","financial_status":"paid","total_price":"38.50","line_items":` +
		`[{"id":866550311766439020,"admin_graphql_api_id":"gid://shopify/LineItem/86655031176643902` +
		`0","name":"Embroidered cap - Navy","title":"Embroidered ` +
		`cap","variant_title":"Navy","sku":"CAP-NAVY","product_id":632910392,"variant_id":808950810` +
		`,"quantity":1,"price":"29.00","properties":[{"name":"Artwork","value":"${artworkUrl}"},{"n` +
		`ame":"Width (mm)","value":"60"},{"name":"Colours","value":"2"},{"name":"_Format","value":"` +
		`dst"}]},{"id":866550311766439021,"admin_graphql_api_id":"gid://shopify/LineItem/8665503117` +
		`66439021","name":"Gift wrap","title":"Gift ` +
		`wrap","sku":"WRAP","product_id":632910393,"variant_id":808950811,"quantity":1,"price":"9.5` +
		`0","properties":[]}]}`,
	savedAs: 'shopify-1042-1.dst',
};

const wooCommerce: Shop = {
	slug: 'woocommerce-order-to-machine-file',
	workflowId: exampleIds.wooCommerce,
	path: 'woocommerce-order-created',
	signatureHeader: 'X-WC-Webhook-Signature',
	headers: {
		'X-WC-Webhook-Source': 'https://stitch-studio.example/',
		'X-WC-Webhook-Topic': 'order.created',
		'X-WC-Webhook-Resource': 'order',
		'X-WC-Webhook-Event': 'created',
		'X-WC-Webhook-ID': '12',
		'X-WC-Webhook-Delivery-ID': 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
	},
	order: (artworkUrl) =>
		JSON.stringify({
			id: 727,
			parent_id: 0,
			number: '727',
			status: 'processing',
			currency: 'EUR',
			date_created: '2026-11-25T11:00:00',
			total: '31.00',
			billing: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
			line_items: [
				{
					id: 315,
					name: 'Embroidered tote',
					product_id: 93,
					variation_id: 0,
					quantity: 1,
					sku: 'TOTE',
					price: 25,
					meta_data: [
						{
							id: 4211,
							key: 'artwork_url',
							value: artworkUrl,
							display_key: 'Artwork',
							display_value: artworkUrl,
						},
						{
							id: 4212,
							key: 'width_mm',
							value: '70',
							display_key: 'Width (mm)',
							display_value: '70',
						},
						{ id: 4213, key: 'colours', value: '2', display_key: 'Colours', display_value: '2' },
						{ id: 4214, key: '_format', value: 'pes', display_key: 'format', display_value: 'pes' },
					],
				},
				{
					id: 316,
					name: 'Shipping insurance',
					product_id: 94,
					variation_id: 0,
					quantity: 1,
					sku: 'INS',
					price: 6,
					meta_data: [],
				},
			],
		}),
	savedAs: 'woocommerce-727-1.pes',
};

/** What each template was published with: its account at the service and the folder it saves to. */
interface Published {
	account: { id: string; key: string };
	deliveryFolder: string;
}

const shopOrderSlug = 'shop-order-to-machine-file';
let n8n: LocalN8n;
let sandbox: SandboxInfo;
let samples: Awaited<ReturnType<typeof serveSampleFiles>>;
const published = new Map<string, Published>();

/** What the service holds for an account: its jobs and its usage (credits, allowances). */
const atTheService = async (account: Published['account']) => {
	const response = await fetch(`${sandbox.baseUrl}/jobs`, {
		headers: { Authorization: `Bearer ${account.key}` },
	});
	const listing = (await response.json()) as {
		data?: Array<Record<string, unknown>>;
		jobs?: Array<Record<string, unknown>>;
	};
	const jobs = listing.data ?? listing.jobs ?? [];
	return { jobs, usage: await sandboxAdmin(sandbox).usage(account.id) };
};

/** Usage fields that start again at 00:00 UTC each day, and on the first of each month. */
const dailyFields = ['dailyUsed', 'dailyRemaining', 'dailyResetsAt', 'previewRemaining'];
const monthlyFields = ['monthlyUsed', 'monthlyRemaining', 'monthlyResetsAt'];

/**
 * Nothing was spent between two readings of an account's usage. Across midnight UTC the day's counts start
 * again, so only what did not start again is compared: the credits (every conversion here costs one), the
 * month unless it too began, and a new day or month with nothing counted yet.
 */
function expectNothingSpent(before: Record<string, unknown>, after: Record<string, unknown>): void {
	const newDay = after.dailyResetsAt !== before.dailyResetsAt;
	const newMonth = after.monthlyResetsAt !== before.monthlyResetsAt;
	const restarted = [...(newDay ? dailyFields : []), ...(newMonth ? monthlyFields : [])];
	const kept = (usage: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(usage).filter(([field]) => !restarted.includes(field)));
	expect(kept(after)).toEqual(kept(before));
	if (newDay) expect(after.dailyUsed).toBe(0);
	if (newMonth) expect(after.monthlyUsed).toBe(0);
}

/**
 * Imports and publishes one template with an account (20 credits) and a delivery folder of its own, so what
 * one template creates or spends is never counted for another.
 */
/** One template's account, credential and workflow, to import with the others' (one n8n command for all). */
async function prepare(
	slug: string,
	credential: { id: string; name: string },
	filesDir: string,
): Promise<{ credential: CredentialExport; workflow: WorkflowExport }> {
	const created = await sandboxAdmin(sandbox).createAccountWithKey({
		name: `${slug} shop`,
		plan: 'credits',
		creditBalance: 20,
	});
	const account = { id: created.accountId, key: created.key };
	const deliveryFolder = join(filesDir, 'shops', slug);
	await mkdir(deliveryFolder, { recursive: true });
	const example = (await readExamples()).find((candidate) => candidate.slug === slug)!;
	const workflow: WorkflowExport = withLocalValues(useCredential(example.workflow, credential), {
		deliveryFolder,
	});
	published.set(slug, { account, deliveryFolder });
	return {
		credential: {
			...credential,
			type: 'embroideryApi',
			data: { apiKey: account.key, baseUrl: sandbox.baseUrl },
		},
		workflow,
	};
}

// The three templates side by side in one n8n, started once: each has its own webhook path, account and folder.
beforeAll(async () => {
	const environment = await openServedEnvironment();
	({ n8n, sandbox } = environment);
	const prepared = [];
	for (const shop of [shopify, wooCommerce]) {
		prepared.push(
			await prepare(
				shop.slug,
				{ id: `shopCred${shop.workflowId.slice(-6)}`, name: `Embroidery for ${shop.slug}` },
				environment.filesDir,
			),
		);
	}
	prepared.push(
		await prepare(
			shopOrderSlug,
			{ id: 'shopCredExShop1', name: 'Embroidery for the shop-order example' },
			environment.filesDir,
		),
	);
	await n8n.importCredentials(prepared.map(({ credential }) => credential));
	await n8n.importWorkflows(prepared.map(({ workflow }) => workflow));
	await n8n.activateWorkflows(prepared.map(({ workflow }) => workflow.id));
	samples = await serveSampleFiles();
});

afterAll(async () => {
	samples?.server.close();
});

describe.each([shopify, wooCommerce])('the $slug template, published under n8n start', (shop) => {
	let account: Published['account'];
	let deliveryFolder: string;
	const deliver = async (rawBody: string, signature: string | undefined) =>
		await fetchN8n(`${n8n.url}/webhook/${shop.path}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...shop.headers,
				...(signature ? { [shop.signatureHeader]: signature } : {}),
			},
			body: rawBody,
			signal: AbortSignal.timeout(30_000),
		});

	beforeAll(() => {
		({ account, deliveryFolder } = published.get(shop.slug)!);
	});

	it(
		'refuses a mis-signed, an unsigned and an altered ' +
			'delivery with 401, and nothing is created or spent',
		async () => {
			const before = await atTheService(account);
			const rawBody = shop.order(`${samples.url}/logo.svg`);
			const refused = [
				await deliver(rawBody, signBody(rawBody, 'not-the-shop-secret')),
				await deliver(rawBody, undefined),
				await deliver(rawBody.replace('"quantity":1', '"quantity":5'), signBody(rawBody)),
			];
			for (const response of refused) {
				expect(response.status).toBe(401);
				expect(await response.json()).toEqual({
					message: expect.stringMatching(/not signed with this workflow's webhook secret/),
				});
			}
			// The executions have ended (each refused in the Verify signature branch) before the service is counted.
			await waitForExecutions(n8n, shop.workflowId, 3, 30_000);
			await sleep(2_000);
			const after = await atTheService(account);
			expect(after.jobs).toHaveLength(before.jobs.length);
			expectNothingSpent(before.usage, after.usage);
			expect(existsSync(join(deliveryFolder, shop.savedAs))).toBe(false);
		},
		120_000,
	);

	it('turns a signed order into the machine file on disk, one job for the one line item with artwork', async () => {
		const rawBody = shop.order(`${samples.url}/logo.svg`);
		const response = await deliver(rawBody, signBody(rawBody, localShop.webhookSecret));
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ received: true });

		// The file is written by the execution, and whole once it has ended: n8n creates it before writing its
		// bytes, so its being there says nothing. The three refused deliveries above ran first.
		await waitForExecutions(n8n, shop.workflowId, 4, 240_000);
		const saved = join(deliveryFolder, shop.savedAs);
		expect(existsSync(saved)).toBe(true);
		const format = shop.savedAs.split('.').pop()!;
		const metrics = measurePattern(readPattern(await readFile(saved), format));
		expect(metrics.stitchCount).toBeGreaterThan(100);
		expect(metrics.colourCount).toBeLessThanOrEqual(2);
		const { jobs } = await atTheService(account);
		expect(jobs).toEqual([
			expect.objectContaining({ kind: 'digitising', status: 'completed', downloadsUnlocked: true }),
		]);
		expect(await readdir(deliveryFolder)).toEqual([shop.savedAs]);
	}, 300_000);

	it('makes nothing twice when the platform delivers the same order again', async () => {
		const before = await atTheService(account);
		const rawBody = shop.order(`${samples.url}/logo.svg`);
		const response = await deliver(rawBody, signBody(rawBody, localShop.webhookSecret));
		expect(response.status).toBe(200);
		await waitForExecutions(n8n, shop.workflowId, 5, 60_000);
		await sleep(2_000);
		const after = await atTheService(account);
		expect(after.jobs).toHaveLength(before.jobs.length);
		expectNothingSpent(before.usage, after.usage);
	}, 120_000);
});

describe('the shop-order example, published under n8n start: safe to copy', () => {
	let account: Published['account'];
	let deliveryFolder: string;
	const post = async (
		order: Record<string, unknown>,
		secret: string | null = localShop.webhookSecret,
	) => {
		const rawBody = JSON.stringify(order);
		return await fetchN8n(`${n8n.url}/webhook/embroidery-order`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...(secret ? { 'X-Shop-Signature': signBody(rawBody, secret) } : {}),
			},
			body: rawBody,
			signal: AbortSignal.timeout(30_000),
		});
	};

	beforeAll(() => {
		({ account, deliveryFolder } = published.get(shopOrderSlug)!);
	});

	it(
		'refuses unsigned and mis-signed orders (401) and orders with a field out of bounds (422, ' +
			'naming it); none creates, spends or writes anything',
		async () => {
			const before = await atTheService(account);
			const good = {
				orderId: 'B-3001',
				artworkUrl: `${samples.url}/logo.svg`,
				widthMm: 60,
				colourCount: 2,
				format: 'dst',
			};
			expect((await post(good, null)).status).toBe(401);
			expect((await post(good, 'not-the-shop-secret')).status).toBe(401);
			const refusals: Array<[Record<string, unknown>, RegExp]> = [
				[{ ...good, orderId: '../../etc/cron.d/x' }, /orderId: 1-40 letters, digits or dashes/],
				[{ ...good, orderId: 'B-3001.dst/..' }, /orderId/],
				[
					// A host not listed in Settings (tests list only 127.0.0.1): refused before any request.
					{ ...good, artworkUrl: `http://localhost:${new URL(samples.url).port}/logo.svg` },
					/artworkUrl: an http\(s\) link on a host listed in Settings/,
				],
				[{ ...good, artworkUrl: `file:///etc/passwd` }, /artworkUrl/],
				// A user part before the host, the disguise of a host not listed; loopback should it ever be fetched.
				[{ ...good, artworkUrl: `http://user@127.0.0.1/logo.svg` }, /artworkUrl/],
				[{ ...good, widthMm: 5000 }, /widthMm: a number from 10 to 300/],
				[{ ...good, colourCount: 2.5 }, /colourCount: a whole number from 1 to 24/],
				[{ ...good, format: 'exe' }, /format: one of dst, exp/],
				[{ ...good, threadPalette: 'Madeira; rm -rf' }, /threadPalette/],
			];
			for (const [order, reason] of refusals) {
				const response = await post(order);
				expect(response.status).toBe(422);
				expect(((await response.json()) as { message: string }).message).toMatch(reason);
			}
			await waitForExecutions(n8n, exampleIds.shopOrder, 2 + refusals.length, 60_000);
			await sleep(2_000);
			const after = await atTheService(account);
			expect(after.jobs).toHaveLength(before.jobs.length);
			expectNothingSpent(before.usage, after.usage);
			expect(await readdir(deliveryFolder)).toEqual([]);
		},
		180_000,
	);
});
