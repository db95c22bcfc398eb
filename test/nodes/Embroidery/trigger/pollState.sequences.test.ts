/**
 * The sequences in which the trigger used to lose, stall or repeat an ending, each as its own run of the pure poll
 * (pollJobs and advancePoll over jobs kept in memory, the saved state written the way n8n writes it).
 */
import { decodeTime } from 'ulid';

import { jobsListingSize } from '../../../../nodes/Embroidery/transport';
import type { PollState, TriggerFilter } from '../../../../nodes/Embroidery/trigger/pollState';
import {
	CLOCK_SKEW_TOLERANCE_MS,
	FAILED_CHECKS_BEFORE_WARNING,
	FOLLOW_UPS_PER_POLL,
	RETRY_WATCH_MS,
	advancePoll,
	holdBackEndings,
	jobsToFollowUp,
	readPollState,
} from '../../../../nodes/Embroidery/trigger/pollState';
import { JobsInMemory } from './support/jobsInMemory';
import { SavedStatePoller } from './support/savedStatePoller';

const everything: TriggerFilter = {
	events: ['completed', 'failed'],
	workflows: ['conversion', 'digitising'],
};
const ending = (id: string, status: string) => `${id}:${status}`;

/** Polls until `done` or the polls run out; a minute of the service's clock passes between polls. */
async function pollUntil(
	jobs: JobsInMemory,
	poller: SavedStatePoller,
	polls: number,
	done: () => boolean,
) {
	for (let poll = 0; poll < polls && !done(); poll++) {
		jobs.advance(60_000);
		await poller.poll();
	}
}

/** What n8n keeps across a restart: the state as JSON. */
const restarted = (state: PollState) => readPollState(JSON.parse(JSON.stringify(state)));

describe('a job that ended, left the listing, then was retried with Job > Retry', () => {
	it('its new ending is emitted once: failed, then completed after the retry', async () => {
		const jobs = new JobsInMemory();
		const poller = new SavedStatePoller(jobs);
		await poller.poll();
		const id = jobs.create('digitising', 'failed');
		expect(await poller.poll()).toEqual([ending(id, 'failed')]);
		jobs.createMany(jobsListingSize, 'conversion', 'completed');
		await poller.poll();
		expect(jobs.listing().map((job) => job.id)).not.toContain(id);
		jobs.retry(id);
		await pollUntil(jobs, poller, 30, () => false);
		jobs.set(id, 'completed');
		await pollUntil(jobs, poller, 30, () => poller.emitted.includes(ending(id, 'completed')));
		await pollUntil(jobs, poller, 30, () => false);
		expect(poller.emitted.filter((entry) => entry.startsWith(id))).toEqual([
			ending(id, 'failed'),
			ending(id, 'completed'),
		]);
	});

	it(
		'a retry that failed again before the trigger looked is told apart by its attempt count, ' +
			'and emitted once',
		async () => {
			const jobs = new JobsInMemory();
			const poller = new SavedStatePoller(jobs);
			await poller.poll();
			const id = jobs.create('conversion', 'processing');
			await poller.poll();
			jobs.createMany(jobsListingSize, 'conversion', 'completed');
			await poller.poll();
			jobs.set(id, 'failed');
			await pollUntil(jobs, poller, 10, () => poller.emitted.includes(ending(id, 'failed')));
			jobs.retry(id);
			jobs.set(id, 'failed');
			await pollUntil(jobs, poller, 40, () => false);
			expect(poller.emitted.filter((entry) => entry.startsWith(id))).toEqual([
				ending(id, 'failed'),
				ending(id, 'failed'),
			]);
		},
	);

	it(
		'is watched for a retry only while its source may ' +
			'be retried, so the state does not keep it for ever',
		async () => {
			const jobs = new JobsInMemory();
			const poller = new SavedStatePoller(jobs);
			await poller.poll();
			const id = jobs.create('digitising', 'failed');
			await poller.poll();
			jobs.createMany(jobsListingSize, 'conversion', 'completed');
			await poller.poll();
			expect(poller.state?.jobs.map((job) => job.id)).toContain(id);
			jobs.advance(RETRY_WATCH_MS);
			await poller.poll();
			expect(poller.state?.jobs.map((job) => job.id)).not.toContain(id);
		},
	);
});

describe('a followed job whose per-job request keeps failing', () => {
	it('is warned about from the third failed check on, and stays followed until the service answers', async () => {
		const jobs = new JobsInMemory();
		const poller = new SavedStatePoller(jobs);
		await poller.poll();
		const id = jobs.create('conversion', 'processing');
		await poller.poll();
		jobs.createMany(jobsListingSize, 'conversion', 'completed');
		jobs.unreachable.add(id);
		for (let poll = 0; poll < FAILED_CHECKS_BEFORE_WARNING + 2; poll++) await poller.poll();
		expect(poller.unreachable.map((warning) => warning.failedChecks)).toEqual([3, 4, 5]);
		expect(poller.unreachable.every((warning) => warning.id === id)).toBe(true);
		jobs.unreachable.delete(id);
		jobs.set(id, 'completed');
		await poller.poll();
		expect(poller.emitted).toContain(ending(id, 'completed'));
	});

	it('keeps its count across a restart and across polls that did not reach it', () => {
		const jobs = new JobsInMemory();
		const followed = jobs.createMany(FOLLOW_UPS_PER_POLL, 'conversion', 'processing');
		let state = advancePoll(undefined, jobs.listing(), [], everything, jobs.now()).state;
		jobs.createMany(jobsListingSize, 'conversion', 'completed');
		const [stuck] = followed;
		const poll = (reach: (id: string) => boolean) => {
			const asked = jobsToFollowUp(state, jobs.listing(), everything, jobs.now()).filter((job) =>
				reach(job.id),
			);
			const results = asked.map((job) =>
				job.id === stuck ? { id: job.id, unreachable: true as const } : { ...job },
			);
			const outcome = advancePoll(state, jobs.listing(), results, everything, jobs.now());
			state = outcome.state;
			return outcome.unreachable.map((job) => job.failedChecks);
		};
		expect(poll(() => true)).toEqual([]);
		expect(poll(() => true)).toEqual([]);
		state = restarted(state)!;
		// A poll that runs out of time before it reaches the job leaves its count as it was.
		expect(poll(() => false)).toEqual([]);
		expect(poll((id) => id !== stuck)).toEqual([]);
		expect(poll(() => true)).toEqual([3]);
	});
});

describe('an ending whose item keeps failing', () => {
	it('counts its failed polls in the saved state, across a restart and a poll that did not reach it', () => {
		const jobs = new JobsInMemory();
		const id = jobs.create('conversion', 'processing');
		let state = advancePoll(undefined, jobs.listing(), [], everything, jobs.now()).state;
		jobs.set(id, 'completed');
		let outcome = advancePoll(state, jobs.listing(), [], everything, jobs.now());
		expect(outcome.emit.map((job) => job.failedPolls ?? 0)).toEqual([0]);
		state = restarted(holdBackEndings(outcome.state, outcome.emit))!;
		outcome = advancePoll(state, jobs.listing(), [], everything, jobs.now());
		expect(outcome.emit.map((job) => job.failedPolls)).toEqual([1]);
		state = holdBackEndings(outcome.state, outcome.emit);
		// The job leaves the listing, and the next poll has no time to follow it up.
		jobs.createMany(jobsListingSize, 'conversion', 'completed');
		outcome = advancePoll(state, jobs.listing(), [], everything, jobs.now());
		expect(outcome.emit.map((job) => job.id)).not.toContain(id);
		state = restarted(outcome.state)!;
		const [followUp] = jobsToFollowUp(state, jobs.listing(), everything, jobs.now());
		expect(followUp.id).toBe(id);
		outcome = advancePoll(
			state,
			jobs.listing(),
			[{ id, workflow: 'conversion', status: 'completed' }],
			everything,
			jobs.now(),
		);
		expect(outcome.emit).toEqual([
			{ id, workflow: 'conversion', status: 'completed', failedPolls: 2 },
		]);
	});
});

describe('a job whose id was made on a service machine with a slower clock', () => {
	it(
		'is new although its id is older than the oldest ' +
			'job of the listing, within the clock-skew tolerance',
		async () => {
			const jobs = new JobsInMemory();
			jobs.createMany(jobsListingSize, 'conversion', 'completed');
			const poller = new SavedStatePoller(jobs);
			await poller.poll();
			// The listing moves on, far enough that the tolerance applies below it.
			for (let round = 0; round < 10; round++) {
				jobs.createMany(jobsListingSize, 'conversion', 'completed');
				jobs.advance(CLOCK_SKEW_TOLERANCE_MS);
				await poller.poll();
			}
			const oldest = jobs.listing().at(-1)!.id;
			// Created now (the next second), with an id a minute older than the listing's oldest job.
			const skewed = jobs.create(
				'digitising',
				'completed',
				jobs.now() + 1000 - (decodeTime(oldest) - 60_000),
			);
			expect(skewed < oldest).toBe(true);
			expect(await poller.poll()).toEqual([ending(skewed, 'completed')]);
			expect(await poller.poll()).toEqual([]);
		},
	);

	it(
		'is new although its id is older than the oldest job of the first full listing after activation, ' +
			'as the listing shows it ahead of the jobs the trigger knows',
		async () => {
			const jobs = new JobsInMemory();
			jobs.createMany(jobsListingSize, 'conversion', 'completed');
			const poller = new SavedStatePoller(jobs);
			await poller.poll();
			const oldest = jobs.listing().at(-1)!.id;
			expect(poller.state?.floor).toBe(oldest);
			// Created now, on a machine whose clock is a minute behind: its id is older than the first floor.
			const skewed = jobs.create('digitising', 'completed', 60_000);
			expect(decodeTime(skewed)).toBeLessThan(decodeTime(oldest));
			expect(await poller.poll()).toEqual([ending(skewed, 'completed')]);
			expect(await poller.poll()).toEqual([]);
		},
	);
});
