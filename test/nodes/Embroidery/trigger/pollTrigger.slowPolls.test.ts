/**
 * Polls that take longer than the time after which the next poll goes ahead (Download Files on, a slow service):
 * the trigger in n8n-core's poll executor against the sandbox, on a driven clock (test/support/testClock.ts): the
 * service's 4-minute answers, the poll budget and the schedule's 16 minutes pass as soon as nothing else goes on,
 * and the real work in between (requests to the sandbox, the node's own) keeps its real length, however slow the
 * machine.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { clock, useClock } from '../../../../nodes/Embroidery/transport/clock';
import { pollLimits } from '../../../../nodes/Embroidery/trigger/pollLimits';
import { TestClock } from '../../../support/testClock';
import { ActiveTriggerHarness, collectLoggedWarnings } from '../../../support/triggerRun';
import { useWorkerSandbox, useVariantService } from '../../../support/sandboxFixture';
import { convert, newAccount, waitUntilEnded } from './support/sandboxJobs';

jest.setTimeout(240_000);

const { sandbox, admin } = useWorkerSandbox();
const variant = useVariantService(sandbox, [pollLimits]);

/**
 * The driven clock in force from here to the end of the test. Not before: the worker sandbox runs in another
 * process, whose jobs this clock cannot see, so the conversions are waited for on the wall clock.
 */
const testClock = new TestClock();
let restoreClock: () => void = () => undefined;
function driveTheClock(): void {
	const restore = useClock(testClock);
	const stop = testClock.drive();
	restoreClock = () => {
		stop();
		restore();
	};
}
afterEach(() => restoreClock());

const minutes = (count: number) => count * 60_000;
const idsOf = (items: INodeExecutionData[] | null) =>
	(items ?? []).map((item) => String(item.json.id));

describe('polls longer than the time after which the next poll goes ahead', () => {
	it(
		'each poll keeps to its budget and emits what it finished, so every ending goes out once ' +
			'although each item takes 4 minutes',
		async () => {
			const account = await newAccount(admin, sandbox);
			const trigger = new ActiveTriggerHarness({
				parameters: {
					events: ['completed', 'failed'],
					workflow: 'both',
					options: { includeFullJob: true },
				},
				credentials: { ...account.credentials, baseUrl: variant.baseUrl },
			});
			expect(await trigger.activate()).toBeNull();
			const ids = await convert(account, 6);
			await waitUntilEnded(account, ids);
			// Every job's detail takes 4 minutes to arrive: six of them are 24 minutes, beyond the 15 after
			// which a poll is presumed stuck.
			variant.on((request) =>
				request.route === 'GET /jobs/conversion/{id}'
					? { delayMs: minutes(4), clock: testClock }
					: undefined,
			);
			driveTheClock();

			const polls: Array<{ startedAt: number; endedAt?: number; emitted?: string[] }> = [];
			const { warnings } = await collectLoggedWarnings(async () => {
				const running: Array<Promise<void>> = [];
				// The schedule: a poll every 16 minutes, four times.
				for (let index = 0; index < 4; index++) {
					const poll = { startedAt: clock.now() } as (typeof polls)[number];
					polls.push(poll);
					running.push(
						trigger.poll().then((items) => {
							poll.endedAt = clock.now();
							poll.emitted = idsOf(items);
						}),
					);
					await clock.sleep(minutes(16));
				}
				await Promise.all(running);
			});
			// Before every later poll started, the one before it had emitted what it finished.
			for (const poll of polls) {
				expect(poll.emitted?.length).toBeGreaterThan(0);
				// The budget is n8n's (5 minutes here); the item under way when it ran out is cut short at once.
				expect(poll.endedAt! - poll.startedAt).toBeLessThan(minutes(6));
			}
			expect(warnings.join('\n')).not.toMatch(/overtaken/);
			for (let more = 0; more < 6 && trigger.emittedItems().length < ids.length; more++)
				await trigger.poll();
			const emitted = trigger.emittedItems().map((item) => String(item.json.id));
			expect([...emitted].sort()).toEqual([...ids].sort());
			expect(trigger.failures).toEqual([]);
		},
	);
});
