import { ActiveTriggerHarness, collectLoggedWarnings } from '../../../support/triggerRun';
import { useSandbox } from '../../../support/sandboxFixture';
import { FOLLOW_UPS_PER_POLL } from '../../../../nodes/Embroidery/trigger/pollLimits';
import { convert, newAccount, waitUntilEnded } from './support/sandboxJobs';
import { startVariantService, type VariantService } from '../../../support/variantService';
import { TestClock, useTestClock } from '../../../support/testClock';

jest.setTimeout(180_000);

// The trigger's backoffs and Retry-After waits and the sandbox's rate windows run on one driven clock; the
// 429 test keeps real time on purpose.
const clock = new TestClock();
const { sandbox, admin } = useSandbox({ time: clock });
useTestClock(clock, { busy: () => !sandbox.atRest() });

/**
 * What reached the proxy since the last look, one line a request: "GET /jobs", "GET /jobs/{workflow}/{id}", or
 * "429 GET /jobs" for one the proxy answered itself.
 */
function seenSinceLastLook(proxy: VariantService): string[] {
	return proxy
		.take()
		.map((request) =>
			request.handling === 'passed' ? request.route : `${request.status} ${request.route}`,
		);
}

/**
 * Answers the next request of each route ("GET /jobs") with 429 and Retry-After: 1, as the service does over
 * its rate limit.
 */
function refuseOnce(proxy: VariantService, ...routes: string[]): void {
	proxy.on((request) => {
		const index = routes.indexOf(request.route);
		if (index === -1) return undefined;
		routes.splice(index, 1);
		return {
			status: 429,
			headers: { 'retry-after': '1' },
			body: { message: 'Too Many Attempts.' },
		};
	});
}

describe('Embroidery Trigger request budget', () => {
	it(
		'spends one listing request per poll with 50 jobs in flight, plus one request per followed ' +
			'or failed job',
		async () => {
			const proxy = await startVariantService(sandbox.origin);
			try {
				const account = await newAccount(admin, sandbox);
				await admin.setFaults({ processingPaused: true });
				const inWindow = await convert(account, 50);
				const trigger = new ActiveTriggerHarness({
					parameters: { events: ['completed', 'failed'], workflow: 'both' },
					credentials: { ...account.credentials, baseUrl: proxy.baseUrl },
				});
				await trigger.activate();
				expect(seenSinceLastLook(proxy)).toEqual(['GET /jobs']);
				for (let poll = 0; poll < 3; poll++) expect(await trigger.poll()).toBeNull();
				expect(seenSinceLastLook(proxy)).toEqual(['GET /jobs', 'GET /jobs', 'GET /jobs']);

				// Five newer jobs push five unfinished ones out of the listing: each is followed on its own.
				const newer = await convert(account, 5);
				expect(await trigger.poll()).toBeNull();
				const pushedOut = seenSinceLastLook(proxy);
				expect(pushedOut).toEqual(['GET /jobs', ...Array(5).fill('GET /jobs/conversion/{id}')]);

				await admin.setFaults({ processingPaused: false, engineFailureRate: 0.5 });
				const all = [...inWindow, ...newer];
				const statuses = await waitUntilEnded(account, all.slice(5), 120_000);
				await admin.clearFaults();
				const items = (await trigger.poll()) ?? [];
				expect(items.map((item) => item.json.id).sort()).toEqual([...all].sort());
				const failedInListing = all.slice(5).filter((id) => statuses.get(id) === 'failed').length;
				const requests = seenSinceLastLook(proxy);
				expect(requests.filter((request) => request === 'GET /jobs')).toHaveLength(1);
				// Follow-ups for the 5 jobs outside the listing (their answer is the full job), one GET per failure in it.
				expect(requests).toHaveLength(1 + Math.min(5, FOLLOW_UPS_PER_POLL) + failedInListing);
				expect(failedInListing).toBeGreaterThan(0);
				expect(await trigger.poll()).toBeNull();
				expect(seenSinceLastLook(proxy)).toEqual(['GET /jobs']);
			} finally {
				await admin.clearFaults();
				await proxy.close();
			}
		},
	);

	it(
		'waits out a 429 on the listing and on a per-job request within the poll, through the ' +
			'shared transport (real time)',
		async () => {
			const proxy = await startVariantService(sandbox.origin);
			const resume = clock.pause();
			try {
				const account = await newAccount(admin, sandbox);
				const trigger = new ActiveTriggerHarness({
					parameters: { events: ['completed', 'failed'], workflow: 'both' },
					credentials: { ...account.credentials, baseUrl: proxy.baseUrl },
				});
				await trigger.activate();
				await admin.setFaults({ engineFailureRate: 1 });
				const [id] = await convert(account, 1);
				await waitUntilEnded(account, [id]);
				await admin.clearFaults();
				seenSinceLastLook(proxy);
				refuseOnce(proxy, 'GET /jobs', 'GET /jobs/conversion/{id}');
				const { value, warnings } = await collectLoggedWarnings(async () => await trigger.poll());
				expect((value ?? []).map((item) => [item.json.id, item.json.status])).toEqual([
					[id, 'failed'],
				]);
				expect(typeof value![0].json.failureCode).toBe('string');
				expect(seenSinceLastLook(proxy)).toEqual([
					'429 GET /jobs',
					'GET /jobs',
					'429 GET /jobs/conversion/{id}',
					'GET /jobs/conversion/{id}',
				]);
				expect(warnings.filter((warning) => warning.includes('poll failed'))).toEqual([]);
				expect(trigger.failures).toEqual([]);
			} finally {
				resume();
				await admin.clearFaults();
				await proxy.close();
			}
		},
	);

	it(
		'emits jobs whose previews keep failing with the failure on each item, one failed poll ' +
			'later, instead of failing every poll',
		async () => {
			const proxy = await startVariantService(sandbox.origin);
			try {
				const account = await newAccount(admin, sandbox);
				const trigger = new ActiveTriggerHarness({
					parameters: { events: ['completed'], workflow: 'both', options: { downloadFiles: true } },
					credentials: { ...account.credentials, baseUrl: proxy.baseUrl },
				});
				await trigger.activate();
				const ids = await convert(account, 2);
				await waitUntilEnded(account, ids);
				// Every preview fails with 500, as a file the service cannot serve.
				proxy.on((request) =>
					/\/preview\?/.test(request.url)
						? { status: 500, body: { message: 'Server Error' } }
						: undefined,
				);
				// Each poll stops at the first job whose file fails for the first time: the first job, then the second.
				for (let poll = 0; poll < 2; poll++) {
					const failed = await collectLoggedWarnings(async () => await trigger.poll());
					expect(failed.value).toBeNull();
					expect(failed.warnings.join('\n')).toMatch(/poll failed, trying again at the next poll/);
				}
				const items = (await trigger.poll()) ?? [];
				expect(items.map((item) => item.json.id)).toEqual(ids);
				for (const item of items) {
					expect(item.json).toMatchObject({ status: 'completed', outputsLocked: true, files: [] });
					expect(item.json.fileErrors).toEqual([expect.objectContaining({ kind: 'preview' })]);
					expect(item.binary).toBeUndefined();
				}
				expect(await trigger.poll()).toBeNull();
				expect(trigger.failures).toEqual([]);
				expect(trigger.emittedItems()).toHaveLength(2);
			} finally {
				await proxy.close();
			}
		},
	);
});
