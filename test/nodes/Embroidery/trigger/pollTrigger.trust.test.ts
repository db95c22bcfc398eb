/**
 * The trigger against spec-valid variants of the service (a rewriting proxy in front of the real sandbox):
 * lean and extra answers, a job whose detail keeps failing, and polls that overlap.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { useClock, wallClock } from '../../../../nodes/Embroidery/transport';
import { pollLimits } from '../../../../nodes/Embroidery/trigger/pollLimits';
import { ActiveTriggerHarness, collectLoggedWarnings } from '../../../support/triggerRun';
import { binaryBuffer } from '../../../support/binaryData';
import { useWorkerSandbox, useVariantService } from '../../../support/sandboxFixture';
import { convert, newAccount, waitUntilEnded } from './support/sandboxJobs';
import type { Account } from './support/sandboxJobs';

jest.setTimeout(120_000);

const { sandbox, admin } = useWorkerSandbox();
const variant = useVariantService(sandbox, [pollLimits]);

/** An active trigger of a fresh account that talks to the variant service; jobs are made straight at the sandbox. */
async function activeTrigger(
	options: { downloadFiles?: boolean; includeFullJob?: boolean } = {},
	harness: { contextPerPoll?: boolean } = {},
): Promise<{ account: Account; trigger: ActiveTriggerHarness }> {
	const account = await newAccount(admin, sandbox);
	const trigger = new ActiveTriggerHarness({
		parameters: { events: ['completed', 'failed'], workflow: 'both', options },
		credentials: { ...account.credentials, baseUrl: variant.baseUrl },
		...harness,
	});
	expect(await trigger.activate()).toBeNull();
	return { account, trigger };
}

const idsOf = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json.id);

describe.each(['lean', 'extra'] as const)('a service that answers %s', (shape) => {
	it(
		'emits each ending job with its preview, fetching ' +
			'the detail of listed jobs that carry no file links',
		async () => {
			const { account, trigger } = await activeTrigger({ downloadFiles: true });
			const ids = await convert(account, 2);
			await waitUntilEnded(account, ids);
			variant.answer(shape);
			const items = (await trigger.poll()) ?? [];
			expect(idsOf(items).sort()).toEqual([...ids].sort());
			for (const item of items) {
				expect(item.json).toMatchObject({ status: 'completed', outputsLocked: true });
				expect((await binaryBuffer(item.binary!.preview)).length).toBeGreaterThan(100);
			}
			expect(variant.of('GET /jobs/conversion/{id}')).toHaveLength(2);
			expect(await trigger.poll()).toBeNull();
			expect(trigger.failures).toEqual([]);
		},
	);
});

describe('one job that keeps failing', () => {
	it(
		'never holds back the others; it is retried two ' +
			'polls, then emitted once with the failure on its item',
		async () => {
			const { account, trigger } = await activeTrigger({ includeFullJob: true });
			const [broken, healthy] = await convert(account, 2);
			await waitUntilEnded(account, [broken, healthy]);
			variant.on((request) =>
				request.route === 'GET /jobs/conversion/{id}' && request.url.includes(broken)
					? { status: 500, body: { message: 'Server Error' } }
					: undefined,
			);
			const first = await collectLoggedWarnings(async () => await trigger.poll());
			expect(idsOf(first.value)).toEqual([healthy]);
			expect(first.warnings.join('\n')).toMatch(
				new RegExp(
					`poll failed, trying again at the next poll for conversion job ${broken}: The service failed: Server Error`,
				),
			);
			expect(await trigger.poll()).toBeNull();
			const third = (await trigger.poll()) ?? [];
			expect(idsOf(third)).toEqual([broken]);
			expect(third[0].json).toMatchObject({
				status: 'completed',
				detailError: 'The service failed: Server Error',
			});
			expect(await trigger.poll()).toBeNull();
			expect(
				trigger
					.emittedItems()
					.map((item) => item.json.id)
					.sort(),
			).toEqual([broken, healthy].sort());
			expect(trigger.failures).toEqual([]);
			// Every poll asked for the broken job again (each ask retried by the transport), the healthy one only once.
			expect(
				variant.of('GET /jobs/conversion/{id}').filter((request) => request.url.includes(healthy)),
			).toHaveLength(1);
		},
	);
});

describe('polls that overlap', () => {
	it.each([
		['one poll context per activation', false],
		["a new poll context for each poll (n8n 2.41's scheduler)", true],
	])(
		'with %s, a poll that starts while another runs is skipped, so nothing is emitted twice',
		async (_, contextPerPoll) => {
			const { account, trigger } = await activeTrigger({}, { contextPerPoll });
			const ids = await convert(account, 1);
			await waitUntilEnded(account, ids);
			variant.requests.splice(0);
			variant.on((request) => (request.route === 'GET /jobs' ? { delayMs: 800 } : undefined));
			await Promise.all([
				trigger.poll(),
				new Promise((resolve) => setTimeout(resolve, 200)).then(async () => await trigger.poll()),
			]);
			expect(trigger.emittedItems().map((item) => item.json.id)).toEqual(ids);
			expect(variant.of('GET /jobs')).toHaveLength(1);
			expect(await trigger.poll()).toBeNull();
			expect(trigger.emittedItems()).toHaveLength(1);
			expect(trigger.failures).toEqual([]);
		},
	);

	it('a poll overtaken after running too long drops what it found; the later poll emits it, once', async () => {
		const { account, trigger } = await activeTrigger();
		const ids = await convert(account, 1);
		await waitUntilEnded(account, ids);
		pollLimits.stuckPollMs = 300;
		let listings = 0;
		variant.on((request) =>
			request.route === 'GET /jobs' && ++listings === 1 ? { delayMs: 1500 } : undefined,
		);
		const { warnings } = await collectLoggedWarnings(async () => {
			const stalled = trigger.poll();
			await new Promise((resolve) => setTimeout(resolve, 500));
			await trigger.poll();
			await stalled;
		});
		expect(trigger.emittedItems().map((item) => item.json.id)).toEqual(ids);
		expect(warnings.join('\n')).toMatch(/was overtaken by a later one; its findings are dropped/);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.emittedItems()).toHaveLength(1);
	});
});

describe('a poll that fails after activation', () => {
	let offsetMs = 0;
	let restoreClock: () => void;
	beforeEach(() => {
		offsetMs = 0;
		restoreClock = useClock({ now: () => wallClock.now() + offsetMs, sleep: wallClock.sleep });
	});
	afterEach(() => restoreClock());

	const refusedKey = () =>
		variant.on((request) =>
			request.route === 'GET /jobs'
				? { status: 401, body: { message: 'Unauthenticated.' } }
				: undefined,
		);

	describe.each([false, true])('with a new poll context for each poll: %s', (contextPerPoll) => {
		it('a refused key (401) is reported through n8n once, and again after the trigger worked in between', async () => {
			const { trigger } = await activeTrigger({}, { contextPerPoll });
			refusedKey();
			expect(await trigger.poll()).toBeNull();
			expect(trigger.failures.map((error) => error.message)).toEqual([
				'Authentication failed: Unauthenticated.',
			]);
			expect((trigger.failures[0] as { description?: string }).description).toMatch(/API key/);
			expect(await trigger.poll()).toBeNull();
			expect(trigger.failures).toHaveLength(1);
			variant.reset();
			expect(await trigger.poll()).toBeNull();
			refusedKey();
			await trigger.poll();
			expect(trigger.failures).toHaveLength(2);
		});

		it('passing faults stay quiet; polls that keep failing for over 30 minutes are reported, once', async () => {
			const { trigger } = await activeTrigger({}, { contextPerPoll });
			variant.on((request) =>
				request.route === 'GET /jobs' ? { status: 503, body: { message: 'Down.' } } : undefined,
			);
			const { warnings } = await collectLoggedWarnings(async () => await trigger.poll());
			expect(warnings.join('\n')).toMatch(/poll failed, trying again at the next poll/);
			offsetMs += 20 * 60_000;
			await trigger.poll();
			expect(trigger.failures).toEqual([]);
			offsetMs += 11 * 60_000;
			await trigger.poll();
			expect(trigger.failures.map((error) => error.message)).toEqual([
				expect.stringMatching(/Down/),
			]);
			expect((trigger.failures[0] as { description?: string }).description).toMatch(
				/failed for 31 minutes/,
			);
			offsetMs += 60_000;
			await trigger.poll();
			expect(trigger.failures).toHaveLength(1);
		});
	});
});
