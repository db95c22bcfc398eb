/**
 * Model-based test of the trigger's state: long random sequences of service events (create, run, end, retry, leave
 * the listing in bursts, ids from a machine with a slow clock, per-job requests that fail, a listing refused with
 * 429) and trigger events (poll, poll that runs out of time, item that cannot be made, restart, crash between the
 * emission and the save), checked against an oracle that knows every ending of every job.
 *
 * The trigger is the pure poll (pollJobs, advancePoll and holdBackEndings) with its state kept the way n8n keeps
 * static data: in memory between polls, written to the database by the activation poll and by every poll that emits.
 *
 * The oracle exempts an ending only for a reason the README states, judged from the service's side (what was listed,
 * when a job was retried, what a restart or a crash lost), never from what the trigger chose to ask for. An ending
 * that stays a job's last one must be emitted, whatever the trigger asked for.
 */
import fc from 'fast-check';
import { decodeTime } from 'ulid';

import type { TriggerFilter } from '../../../../nodes/Embroidery/trigger/pollState';
import {
	CLOCK_SKEW_TOLERANCE_MS,
	RETRY_WATCH_MS,
} from '../../../../nodes/Embroidery/trigger/pollState';
import type { JobStatus, Workflow } from '../../../../nodes/Embroidery/transport/schemas';
import { isEnded } from '../../../../nodes/Embroidery/transport/schemas';
import { JobsInMemory } from './support/jobsInMemory';
import { ModelledN8n, Oracle, type PollEvent, type Step } from './support/endingsOracle';

jest.setTimeout(600_000);

/**
 * Fixed in CI so a run is repeatable; fast-check prints the seed and path of a failing run. To look for and shrink a
 * counterexample:
 * FC_SEED=<seed> FC_RUNS=1000 FC_MIN=0 FC_SHRINK=1 npx jest test/nodes/Embroidery/trigger/pollState.model.test.ts
 */
const seed = Number(process.env.FC_SEED ?? 20_261_125);

const fullPoll: PollEvent = {
	kind: 'poll',
	listingRefused: false,
	followUpsBeforeTimeUp: null,
	itemsBeforeTimeUp: null,
};

const step: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant('create' as const),
			workflow: fc.constantFrom<Workflow>('conversion', 'digitising'),
			skewMs: fc.oneof(
				{ weight: 5, arbitrary: fc.constant(0) },
				{ weight: 1, arbitrary: fc.integer({ min: 1, max: CLOCK_SKEW_TOLERANCE_MS }) },
			),
			endsAtOnce: fc.oneof(
				{ weight: 3, arbitrary: fc.constant(null) },
				{ weight: 1, arbitrary: fc.constantFrom<'completed' | 'failed'>('completed', 'failed') },
			),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('burst' as const),
			count: fc.integer({ min: 10, max: 60 }),
		}),
	},
	{
		weight: 8,
		arbitrary: fc.record({
			kind: fc.constant('run' as const),
			pick: fc.nat(),
			ending: fc.constantFrom<'completed' | 'failed'>('completed', 'failed'),
		}),
	},
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }) },
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('unreachable' as const),
			pick: fc.nat(),
			on: fc.boolean(),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant('time' as const),
			ms: fc.integer({ min: 1000, max: 30 * 60_000 }),
		}),
	},
	{
		weight: 10,
		arbitrary: fc.record({
			kind: fc.constant('poll' as const),
			listingRefused: fc.integer({ min: 0, max: 9 }).map((roll) => roll < 2),
			followUpsBeforeTimeUp: fc.option(fc.integer({ min: 0, max: 5 })),
			itemsBeforeTimeUp: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 4 }),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
	{
		weight: 1,
		arbitrary: fc.record({
			kind: fc.constant('crash' as const),
			lost: fc.constantFrom<'state' | 'execution'>('state', 'execution'),
		}),
	},
);

const filters: TriggerFilter[] = [
	{ events: ['completed', 'failed'], workflows: ['conversion', 'digitising'] },
	{ events: ['completed'], workflows: ['conversion', 'digitising'] },
	{ events: ['failed'], workflows: ['digitising'] },
];

interface RunFigures {
	endings: number;
	required: number;
	exempt: Record<string, number>;
	exemptYetEmitted: number;
	duplicatesAfterCrash: number;
}

/**
 * `olderJobs`: jobs the account had before the eight the sequence starts with; with 42 of them the listing is full
 * at activation, so the first floor is set at once, with no clock-skew tolerance below it.
 */
async function runSequence(
	steps: Step[],
	filter: TriggerFilter,
	olderJobs: number,
): Promise<RunFigures> {
	const jobs = new JobsInMemory();
	const oracle = new Oracle();
	const n8n = new ModelledN8n(jobs, oracle, filter);
	jobs.createMany(olderJobs, 'digitising', 'completed');
	jobs.createMany(5, 'conversion', 'completed');
	jobs.createMany(3, 'digitising', 'processing');
	await n8n.poll(fullPoll);

	const pick = (index: number, wanted: (status: JobStatus) => boolean) => {
		const candidates = jobs.all().filter((job) => wanted(job.status));
		return candidates.length === 0 ? undefined : candidates[index % candidates.length];
	};

	for (const event of steps) {
		switch (event.kind) {
			case 'create': {
				const id = jobs.create(event.workflow, 'queued', event.skewMs);
				if (event.endsAtOnce === null) break;
				jobs.set(id, event.endsAtOnce);
				oracle.ended(id, event.endsAtOnce);
				break;
			}
			case 'burst':
				jobs.createMany(
					event.count,
					jobs.all().length % 2 === 0 ? 'conversion' : 'digitising',
					'processing',
				);
				break;
			case 'run': {
				const job = pick(event.pick, (status) => !isEnded(status));
				if (!job) break;
				if (job.status === 'queued') {
					jobs.set(job.id, 'processing');
					break;
				}
				jobs.set(job.id, event.ending);
				oracle.ended(job.id, event.ending);
				break;
			}
			case 'retry': {
				const job = pick(event.pick, (status) => status === 'failed');
				// The service refuses a retry once the job's source upload has expired.
				if (!job || jobs.now() >= decodeTime(job.id) + RETRY_WATCH_MS) break;
				jobs.retry(job.id);
				oracle.retried(job.id);
				break;
			}
			case 'unreachable': {
				const job = pick(event.pick, () => true);
				if (job && event.on) jobs.unreachable.add(job.id);
				else jobs.unreachable.clear();
				break;
			}
			case 'time':
				jobs.advance(event.ms);
				break;
			case 'poll':
				await n8n.poll(event);
				break;
			case 'crash':
				n8n.crashNext = event.lost;
				break;
			case 'restart':
				n8n.restart();
				break;
		}
	}
	// The service settles: everything runs to its end, nothing fails to answer, and the trigger polls on.
	jobs.unreachable.clear();
	n8n.crashNext = undefined;
	for (const job of jobs.all()) {
		if (isEnded(job.status)) continue;
		jobs.set(job.id, 'completed');
		oracle.ended(job.id, 'completed');
	}
	for (let settle = 0; settle < 80; settle++) {
		jobs.advance(60_000);
		await n8n.poll(fullPoll);
	}

	// Every listing that followed a gap (a job created and pushed out between two polls) warned about it.
	expect(n8n.gaps.filter((gap) => !gap.warned)).toEqual([]);
	const figures: RunFigures = {
		endings: 0,
		required: 0,
		exempt: {},
		exemptYetEmitted: 0,
		duplicatesAfterCrash: 0,
	};
	for (const ending of oracle.endings) {
		const matches =
			filter.events.includes(ending.status) &&
			filter.workflows.includes(jobs.all().find((job) => job.id === ending.id)!.workflow);
		const label = `${ending.id} attempt ${ending.attempt} ${ending.status}`;
		if (!matches) {
			expect({ label, emissions: ending.emissions.length }).toEqual({ label, emissions: 0 });
			continue;
		}
		figures.endings++;
		// Never more than once, except an ending emitted again because a crash lost the state of the poll that emitted it.
		const beyondCrashes =
			ending.emissions.length - ending.emissions.filter((emission) => emission.crashed).length;
		expect({ label, emittedOutsideCrashes: Math.min(beyondCrashes, 2) }).toEqual({
			label,
			emittedOutsideCrashes: Math.min(beyondCrashes, 1),
		});
		figures.duplicatesAfterCrash += Math.max(0, ending.emissions.length - 1);
		// No poll could see it: its job was never listed, or a retry replaced it before any poll looked.
		const unseen = !oracle.listed.has(ending.id)
			? 'never listed: more than 50 jobs created between two polls'
			: ending.replaced && !ending.lookedAt
				? 'retried before the trigger looked at this ending'
				: undefined;
		const exempt = ending.exempt ?? unseen;
		if (exempt === undefined) {
			figures.required++;
			// Never lost.
			// What the oracle knows of the lost ending: looked at, replaced, exempt or not.
			const facts = `${label} ${JSON.stringify({ ...ending, listed: oracle.listed.has(ending.id) })}`;
			expect({ label: facts, emitted: ending.emissions.length > 0 }).toEqual({
				label: facts,
				emitted: true,
			});
		} else {
			figures.exempt[exempt] = (figures.exempt[exempt] ?? 0) + 1;
			if (ending.emissions.length > 0) figures.exemptYetEmitted++;
		}
	}
	return figures;
}

describe('every ending against the oracle, in long random sequences', () => {
	it.each(
		filters.map((filter) => [filter.events.join('+'), filter.workflows.join('+'), filter] as const),
	)(
		'%s of %s: emitted exactly once, never lost, the stated exceptions aside',
		async (_events, _workflows, filter) => {
			const totals: RunFigures = {
				endings: 0,
				required: 0,
				exempt: {},
				exemptYetEmitted: 0,
				duplicatesAfterCrash: 0,
			};
			await fc.assert(
				fc.asyncProperty(
					fc.array(step, {
						minLength: Number(process.env.FC_MIN ?? 100),
						maxLength: 400,
					}),
					fc.constantFrom(0, 42),
					async (steps, olderJobs) => {
						const figures = await runSequence(steps, filter, olderJobs);
						totals.endings += figures.endings;
						totals.required += figures.required;
						totals.exemptYetEmitted += figures.exemptYetEmitted;
						totals.duplicatesAfterCrash += figures.duplicatesAfterCrash;
						for (const [reason, count] of Object.entries(figures.exempt))
							totals.exempt[reason] = (totals.exempt[reason] ?? 0) + count;
					},
				),
				{
					numRuns: Number(process.env.FC_RUNS ?? 60),
					seed,
					endOnFailure: process.env.FC_SHRINK === undefined,
				},
			);
			// The figures the README states: how many endings the exceptions cover, out of all.
			console.info(
				`${filter.events.join('+')} of ${filter.workflows.join('+')} (seed ${seed}): ${JSON.stringify(totals)}`,
			);
			expect(totals.required).toBeGreaterThan(totals.endings * 0.5);
		},
	);
});
