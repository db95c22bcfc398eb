/**
 * The action node, run by n8n-core over real HTTP, against a variant of the service (test/support/variantService.ts)
 * in front of a real sandbox: the setup of the suites that check what the node guarantees (README: What the node
 * guarantees) when the service answers the way another implementation of the spec may.
 */
import type { INodeParameters } from 'n8n-workflow';

import { timeLimits } from '../../../nodes/Embroidery/transport';
import { runNode } from '../../support/nodeRun';
import type { ApiCredentials } from '../../support/n8nCredentials';
import type { InputItem } from '../../support/nodeRun';
import { createConversion } from '../../support/jobParameters';
import { newCredentials, useSandbox, useVariantService } from '../../support/sandboxFixture';
import { TestClock, useTestClock } from '../../support/testClock';
import { embroideryItem, itemsOf } from './nodeItems';

/** Create with Wait for Completion, nothing downloaded unless `extra` asks. */
export const createAndWaitOnly = (extra: INodeParameters = {}): INodeParameters =>
	createConversion({ waitForCompletion: true, timeout: 90, ...extra });

export const stars = (count: number): InputItem[] =>
	Array.from({ length: count }, () => embroideryItem('Star.DST'));

/**
 * A sandbox and the variant service in front of it for the file's tests, the variant's rules and the node's
 * time limits reset after each test. Waits for jobs, wait timeouts and backoffs run on one driven clock with
 * the sandbox (a describe block can take real time back with `useRealTime(clock)`).
 */
export function useVariantSuite() {
	const clock = new TestClock();
	const { sandbox, admin } = useSandbox({ time: clock });
	useTestClock(clock, { busy: () => !sandbox.atRest() });
	const variant = useVariantService(sandbox, [timeLimits]);

	/** A fresh account with credits and entitlements, reached through the variant. */
	async function credentials(
		plan: 'credits' | 'subscription' = 'credits',
	): Promise<ApiCredentials> {
		return await newCredentials(admin, variant.baseUrl, {
			plan,
			creditBalance: 100,
			entitlements: 100,
		});
	}

	/** One completed conversion job of a fresh account, made through the node with the service answering as-is. */
	async function completedJob(plan: 'credits' | 'subscription' = 'credits') {
		const creds = await credentials(plan);
		const [item] = itemsOf(
			await runNode({ credentials: creds, parameters: createAndWaitOnly(), input: stars(1) }),
		);
		expect(item.json.status).toBe('completed');
		variant.reset();
		return { creds, id: String(item.json.id) };
	}

	/** Job ids of the account, oldest first, read through the sandbox as-is (not through the node). */
	async function createdIds(creds: ApiCredentials): Promise<string[]> {
		const response = await fetch(`${sandbox.baseUrl}/jobs`, {
			headers: { Authorization: `Bearer ${creds.apiKey}`, Accept: 'application/json' },
		});
		const body = (await response.json()) as { data: Array<{ id: string }> };
		return body.data.map((job) => job.id).reverse();
	}

	return { clock, sandbox, admin, variant, credentials, completedJob, createdIds };
}
