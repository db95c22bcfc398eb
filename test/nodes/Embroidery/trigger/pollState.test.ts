import type {
	PollState,
	TrackedJob,
	TriggerFilter,
} from '../../../../nodes/Embroidery/trigger/pollState';
import {
	FOLLOW_UPS_PER_POLL,
	MAX_FOLLOWED_JOBS,
	STATE_VERSION,
	advancePoll,
	holdBackEndings,
	jobsToFollowUp,
	readPollState,
} from '../../../../nodes/Embroidery/trigger/pollState';
import { jobsListingSize } from '../../../../nodes/Embroidery/transport';
import { JobsInMemory } from './support/jobsInMemory';

const everything: TriggerFilter = {
	events: ['completed', 'failed'],
	workflows: ['conversion', 'digitising'],
};

function ids(jobs: TrackedJob[]): string[] {
	return jobs.map((job) => job.id);
}

describe('advancePoll', () => {
	it('takes the first listing as the baseline and emits nothing, not even jobs that already ended', () => {
		const jobs = new JobsInMemory();
		jobs.create('conversion', 'completed');
		jobs.create('digitising', 'failed');
		jobs.create('conversion', 'processing');
		const outcome = advancePoll(undefined, jobs.listing(), [], everything);
		expect(outcome.emit).toEqual([]);
		expect(outcome.state.jobs).toHaveLength(3);
		expect(outcome.state.floor).toBeNull();
	});

	it('emits a job that was unfinished at the baseline once it ends, and only once', () => {
		const jobs = new JobsInMemory();
		const id = jobs.create();
		let state = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.set(id, 'processing');
		let outcome = advancePoll(state, jobs.listing(), [], everything);
		expect(outcome.emit).toEqual([]);
		jobs.set(id, 'completed');
		outcome = advancePoll(outcome.state, jobs.listing(), [], everything);
		expect(outcome.emit).toEqual([{ id, workflow: 'conversion', status: 'completed' }]);
		state = outcome.state;
		expect(advancePoll(state, jobs.listing(), [], everything).emit).toEqual([]);
	});

	it('emits a job created and ended between two polls', () => {
		const jobs = new JobsInMemory();
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		const id = jobs.create('digitising', 'failed');
		expect(ids(advancePoll(state, jobs.listing(), [], everything).emit)).toEqual([id]);
	});

	it('says when a full listing holds only jobs it has never seen, as jobs may have been missed', () => {
		const jobs = new JobsInMemory();
		jobs.createMany(3, 'conversion', 'completed');
		let state = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.createMany(jobsListingSize - 1, 'conversion', 'completed');
		const full = advancePoll(state, jobs.listing(), [], everything);
		expect(full.mayHaveMissedJobs).toBe(false);
		state = full.state;
		jobs.createMany(jobsListingSize, 'conversion', 'completed');
		const overrun = advancePoll(state, jobs.listing(), [], everything);
		expect(overrun.mayHaveMissedJobs).toBe(true);
		expect(overrun.emit).toHaveLength(jobsListingSize);
		expect(advancePoll(undefined, jobs.listing(), [], everything).mayHaveMissedJobs).toBe(false);
	});

	it('emits oldest first', () => {
		const jobs = new JobsInMemory();
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		const created = jobs.createMany(5, 'conversion', 'completed');
		expect(ids(advancePoll(state, jobs.listing(), [], everything).emit)).toEqual(created);
	});

	it('applies the event and workflow filters to emission but still records filtered endings', () => {
		const jobs = new JobsInMemory();
		const baseline = advancePoll(undefined, jobs.listing(), [], everything).state;
		const completedConversion = jobs.create('conversion', 'completed');
		const failedConversion = jobs.create('conversion', 'failed');
		const completedDigitising = jobs.create('digitising', 'completed');
		const failedDigitising = jobs.create('digitising', 'failed');
		const listing = jobs.listing();
		const run = (filter: TriggerFilter) => ids(advancePoll(baseline, listing, [], filter).emit);
		expect(run({ events: ['completed'], workflows: ['conversion', 'digitising'] })).toEqual([
			completedConversion,
			completedDigitising,
		]);
		expect(run({ events: ['failed'], workflows: ['conversion', 'digitising'] })).toEqual([
			failedConversion,
			failedDigitising,
		]);
		expect(run({ events: ['completed', 'failed'], workflows: ['digitising'] })).toEqual([
			completedDigitising,
			failedDigitising,
		]);
		expect(run({ events: ['failed'], workflows: ['conversion'] })).toEqual([failedConversion]);
		const filtered = advancePoll(baseline, listing, [], {
			events: ['failed'],
			workflows: ['conversion'],
		});
		// Widening the filter later does not bring back endings that were already passed over.
		expect(advancePoll(filtered.state, listing, [], everything).emit).toEqual([]);
	});

	it('asks for each unfinished job that left the listing and emits it when its follow-up shows it ended', () => {
		const jobs = new JobsInMemory();
		const id = jobs.create();
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.createMany(jobsListingSize, 'conversion', 'processing');
		const listing = jobs.listing();
		expect(ids(listing)).not.toContain(id);
		expect(ids(jobsToFollowUp(state, listing, everything))).toEqual([id]);
		const stillRunning = advancePoll(
			state,
			listing,
			[{ id, workflow: 'conversion', status: 'processing' }],
			everything,
		);
		expect(stillRunning.emit).toEqual([]);
		expect(ids(jobsToFollowUp(stillRunning.state, listing, everything))).toEqual([id]);
		const ended = advancePoll(
			stillRunning.state,
			listing,
			[{ id, workflow: 'conversion', status: 'failed' }],
			everything,
		);
		expect(ended.emit).toEqual([{ id, workflow: 'conversion', status: 'failed' }]);
		expect(jobsToFollowUp(ended.state, listing, everything)).toEqual([]);
	});

	it('does not follow up jobs the workflow filter excludes, nor jobs that ended', () => {
		const jobs = new JobsInMemory();
		jobs.create('digitising', 'processing');
		jobs.create('conversion', 'completed');
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.createMany(jobsListingSize, 'conversion', 'queued');
		const conversionOnly: TriggerFilter = {
			events: ['completed', 'failed'],
			workflows: ['conversion'],
		};
		expect(jobsToFollowUp(state, jobs.listing(), conversionOnly)).toEqual([]);
		const next = advancePoll(state, jobs.listing(), [], conversionOnly);
		expect(next.state.jobs).toHaveLength(jobsListingSize);
	});

	it('forgets a followed job the service no longer has', () => {
		const jobs = new JobsInMemory();
		const id = jobs.create();
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.createMany(jobsListingSize);
		const outcome = advancePoll(state, jobs.listing(), [{ id, gone: true }], everything);
		expect(outcome.emit).toEqual([]);
		expect(ids(outcome.state.jobs)).not.toContain(id);
	});

	it('follows up at most FOLLOW_UPS_PER_POLL jobs per poll and rotates through them', () => {
		const jobs = new JobsInMemory();
		const followed = jobs.createMany(FOLLOW_UPS_PER_POLL + 5, 'conversion', 'processing');
		let state: PollState = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.createMany(jobsListingSize, 'conversion', 'completed');
		state = advancePoll(state, jobs.listing(), [], everything).state;
		const first = jobsToFollowUp(state, jobs.listing(), everything);
		expect(first).toHaveLength(FOLLOW_UPS_PER_POLL);
		state = advancePoll(state, jobs.listing(), first, everything).state;
		const second = jobsToFollowUp(state, jobs.listing(), everything);
		expect(new Set([...ids(first), ...ids(second).slice(0, 5)])).toEqual(new Set(followed));
	});

	it('caps the followed jobs at MAX_FOLLOWED_JOBS, keeping the newest and reporting the rest', () => {
		const jobs = new JobsInMemory();
		let state = advancePoll(undefined, jobs.listing(), [], everything).state;
		const leftListing: string[] = [];
		const abandoned: TrackedJob[] = [];
		for (let round = 0; round < 7; round++) {
			leftListing.push(...ids(jobs.listing()));
			jobs.createMany(jobsListingSize, 'conversion', 'processing');
			const outcome = advancePoll(state, jobs.listing(), [], everything);
			abandoned.push(...outcome.abandoned);
			state = outcome.state;
		}
		expect(leftListing).toHaveLength(6 * jobsListingSize);
		expect(ids(abandoned).sort()).toEqual(
			leftListing.sort().slice(0, leftListing.length - MAX_FOLLOWED_JOBS),
		);
		expect(state.jobs).toHaveLength(jobsListingSize + MAX_FOLLOWED_JOBS);
	});

	it('does not take an old job that re-enters the listing (newer jobs deleted) for a new one', () => {
		const jobs = new JobsInMemory();
		const old = jobs.create('conversion', 'completed');
		const newer = jobs.createMany(jobsListingSize, 'conversion', 'completed');
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		expect(state.floor).toBe(newer[0]);
		jobs.remove(newer[10]);
		expect(ids(jobs.listing())).toContain(old);
		expect(advancePoll(state, jobs.listing(), [], everything).emit).toEqual([]);
	});

	it('emits every ending of a retried job once: failed, then completed after the retry', () => {
		const jobs = new JobsInMemory();
		const id = jobs.create();
		let state = advancePoll(undefined, jobs.listing(), [], everything).state;
		jobs.set(id, 'failed');
		let outcome = advancePoll(state, jobs.listing(), [], everything);
		expect(outcome.emit).toEqual([{ id, workflow: 'conversion', status: 'failed' }]);
		jobs.set(id, 'queued');
		outcome = advancePoll(outcome.state, jobs.listing(), [], everything);
		expect(outcome.emit).toEqual([]);
		jobs.set(id, 'completed');
		outcome = advancePoll(outcome.state, jobs.listing(), [], everything);
		expect(outcome.emit).toEqual([{ id, workflow: 'conversion', status: 'completed' }]);
		state = outcome.state;
		expect(advancePoll(state, jobs.listing(), [], everything).emit).toEqual([]);
	});

	it('notices a retry that went from failed to completed between two polls', () => {
		const jobs = new JobsInMemory();
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		const id = jobs.create('digitising', 'failed');
		const first = advancePoll(state, jobs.listing(), [], everything);
		jobs.set(id, 'completed');
		expect(advancePoll(first.state, jobs.listing(), [], everything).emit).toEqual([
			{ id, workflow: 'digitising', status: 'completed' },
		]);
	});
});

describe('readPollState', () => {
	it('reads back what a poll saved as JSON', () => {
		const jobs = new JobsInMemory();
		jobs.createMany(3);
		const state = advancePoll(undefined, jobs.listing(), [], everything).state;
		expect(readPollState(JSON.parse(JSON.stringify(state)))).toEqual(state);
	});

	it.each([
		['nothing', undefined],
		['a string', 'state'],
		['another version', { version: 2, floor: null, jobs: [] }],
		['jobs that are not a list', { version: STATE_VERSION, floor: null, jobs: {} }],
		['a bad floor', { version: STATE_VERSION, floor: 5, jobs: [] }],
		[
			'a job without a workflow',
			{ version: STATE_VERSION, floor: null, jobs: [{ id: 'x', status: 'queued' }] },
		],
		[
			'a job with an unknown status',
			{
				version: STATE_VERSION,
				floor: null,
				jobs: [{ id: 'x', workflow: 'conversion', status: 'done' }],
			},
		],
	])('treats %s as no state', (_name, saved) => {
		expect(readPollState(saved)).toBeUndefined();
	});
});

describe('holdBackEndings', () => {
	it('keeps a held-back ending unfinished, so the next poll finds it again, also once it left the listing', () => {
		const jobs = new JobsInMemory();
		const [held, other] = jobs.createMany(2, 'conversion', 'processing');
		const first = advancePoll(undefined, jobs.listing(), [], everything);
		jobs.set(held, 'completed');
		jobs.set(other, 'completed');
		const second = advancePoll(first.state, jobs.listing(), [], everything);
		expect(ids(second.emit).sort()).toEqual([held, other].sort());
		const state = holdBackEndings(
			second.state,
			second.emit.filter((job) => job.id === held),
		);
		const third = advancePoll(state, jobs.listing(), [], everything);
		expect(ids(third.emit)).toEqual([held]);
		expect(advancePoll(third.state, jobs.listing(), [], everything).emit).toEqual([]);

		// Held back when it came from a follow-up (not in the listing): it is followed again, not dropped.
		const outside = { id: held, workflow: 'conversion' as const, status: 'completed' as const };
		const withoutIt: PollState = {
			...third.state,
			jobs: third.state.jobs.filter((job) => job.id !== held),
		};
		const kept = holdBackEndings(withoutIt, [outside]);
		expect(kept.jobs.find((job) => job.id === held)?.status).toBe('processing');
		expect(ids(jobsToFollowUp(kept, [], everything))).toContain(held);
	});
});
