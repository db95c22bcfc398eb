/**
 * The first poll of an activation, with no state to carry on from: it emits the endings of jobs that ended after
 * the activation (by the service's completedAt where given, else by the id's creation time, both lowered by the
 * clock-skew tolerance) and keeps the rest as its baseline. n8n may poll first a whole schedule interval after the
 * activation; the service's clock (JobsInMemory) is driven through an hourly schedule here.
 */
import { ulid } from 'ulid';

import { pollJobs } from '../../../../nodes/Embroidery/trigger/pollJobs';
import type { PollState, TriggerFilter } from '../../../../nodes/Embroidery/trigger/pollState';
import { advancePoll } from '../../../../nodes/Embroidery/trigger/pollState';
import { CLOCK_SKEW_TOLERANCE_MS } from '../../../../nodes/Embroidery/trigger/pollLimits';
import { JobsInMemory } from './support/jobsInMemory';

const both: TriggerFilter = {
	events: ['completed', 'failed'],
	workflows: ['conversion', 'digitising'],
};
const minute = 60_000;
const hour = 60 * minute;

/** Polls the way n8n keeps the state between polls of one activation; the first one is told the activation time. */
class HourlyTrigger {
	private state: PollState | undefined;

	readonly emitted: string[] = [];

	constructor(
		private readonly jobs: JobsInMemory,
		private readonly activatedAt: number,
	) {}

	async poll(): Promise<string[]> {
		const result = await pollJobs(this.state, this.jobs.source(), both, {
			now: this.jobs.now(),
			activatedAt: this.activatedAt,
		});
		this.state = result.state;
		const ids = result.endings.map(({ job }) => `${job.id}:${job.status}`);
		this.emitted.push(...ids);
		return ids;
	}
}

describe('the first poll of an activation', () => {
	it(
		'an hour after activation (an hourly schedule) emits every job that ended since, once, and none that ' +
			'ended before',
		async () => {
			const jobs = new JobsInMemory();
			const endedLongBefore = jobs.create('conversion', 'completed');
			jobs.advance(CLOCK_SKEW_TOLERANCE_MS + minute);
			const runningAtActivation = jobs.create('conversion', 'processing');
			const activatedAt = jobs.now();
			const trigger = new HourlyTrigger(jobs, activatedAt);

			jobs.advance(minute);
			const completedAtOnce = jobs.create('conversion', 'completed');
			jobs.advance(20 * minute);
			const failed = jobs.create('digitising', 'failed');
			const stillRunning = jobs.create('conversion', 'processing');
			jobs.advance(hour - 21 * minute);

			expect((await trigger.poll()).sort()).toEqual(
				[`${completedAtOnce}:completed`, `${failed}:failed`].sort(),
			);
			jobs.set(runningAtActivation, 'completed');
			jobs.set(stillRunning, 'failed');
			jobs.advance(hour);
			expect((await trigger.poll()).sort()).toEqual(
				[`${runningAtActivation}:completed`, `${stillRunning}:failed`].sort(),
			);
			jobs.advance(hour);
			expect(await trigger.poll()).toEqual([]);
			expect(trigger.emitted.some((ending) => ending.startsWith(endedLongBefore))).toBe(false);
		},
	);

	it('emits a job created at once after activation even when its id comes from a clock that is behind', async () => {
		const jobs = new JobsInMemory();
		jobs.advance(hour);
		const activatedAt = jobs.now();
		const behind = jobs.create('conversion', 'completed', CLOCK_SKEW_TOLERANCE_MS - 2_000);
		const trigger = new HourlyTrigger(jobs, activatedAt);
		jobs.advance(hour);
		expect(await trigger.poll()).toEqual([`${behind}:completed`]);
		expect(await trigger.poll()).toEqual([]);
	});

	it('judges by completedAt where the listing gives it: created before activation, ended after', () => {
		const activatedAt = Date.UTC(2026, 0, 1, 12);
		const createdBefore = ulid(activatedAt - 2 * hour);
		const listing = [
			{
				id: createdBefore,
				workflow: 'conversion' as const,
				status: 'completed' as const,
				endedAt: activatedAt + minute,
			},
			{
				id: ulid(activatedAt - 3 * hour),
				workflow: 'conversion' as const,
				status: 'completed' as const,
				endedAt: activatedAt - 2 * hour,
			},
		];
		const outcome = advancePoll(undefined, listing, [], both, activatedAt + hour, activatedAt);
		expect(outcome.emit.map((job) => job.id)).toEqual([createdBefore]);
		expect(outcome.state.jobs.map((job) => job.id)).toEqual(listing.map((job) => job.id));
	});

	it('without an activation time takes the listing as its baseline, as a state read back after a restart does', () => {
		const jobs = new JobsInMemory();
		const ended = jobs.create('conversion', 'completed');
		const outcome = advancePoll(undefined, jobs.listing(), [], both, jobs.now());
		expect([outcome.emit, outcome.state.jobs.map((job) => job.id)]).toEqual([[], [ended]]);
	});
});
