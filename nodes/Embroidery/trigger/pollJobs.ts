/**
 * One poll's requests: the jobs listing, then the per-job requests the state asks for, all through a job source,
 * and the pure state machine (pollState.ts) applied to their answers. Nothing is saved here: the caller keeps the
 * state (pollTrigger.ts through savedState.ts; tests in memory).
 */
import type {
	FollowUpResult,
	PollState,
	RememberedJob,
	TrackedJob,
	TriggerFilter,
} from './pollState';
import { clock } from '../transport/clock';
import { advancePoll, jobsToFollowUp } from './pollState';

/** Where a poll reads jobs from: the jobs listing and the per-job route. */
export interface JobSource<Listed extends TrackedJob, Fetched extends TrackedJob> {
	listJobs(): Promise<Listed[]>;
	/** Resolves to undefined when the service no longer has the job. */
	getJob(job: TrackedJob): Promise<Fetched | undefined>;
}

/** A job to emit, with what the poll already holds about it (its listing entry or its full job). */
export interface JobEndingFound<Listed, Fetched> {
	job: RememberedJob;
	listed?: Listed;
	fetched?: Fetched;
}

export interface PollResult<Listed, Fetched> {
	endings: Array<JobEndingFound<Listed, Fetched>>;
	state: PollState;
	abandoned: TrackedJob[];
	unwatched: TrackedJob[];
	unreachable: RememberedJob[];
	mayHaveMissedJobs: boolean;
}

export interface PollTiming {
	/** The node's clock, read once per poll for the retry windows. */
	now: number;
	/** Whether the poll's time budget is spent: no further per-job request is started then. */
	outOfTime?: () => boolean;
	/**
	 * When the trigger was activated (the node's clock), for a poll without a previous state: what ended since is
	 * emitted, what ended before is the baseline.
	 */
	activatedAt?: number;
	/**
	 * For the activation's own poll of a workflow the user activated in a running n8n: what ended since this time
	 * (the node's clock, no allowance added) is emitted, as the activation may have come that long before the poll.
	 */
	endedSince?: number;
}

/** One listing request plus one request per followed job; nothing is written anywhere, the caller keeps the state. */
export async function pollJobs<Listed extends TrackedJob, Fetched extends TrackedJob>(
	previous: PollState | undefined,
	source: JobSource<Listed, Fetched>,
	filter: TriggerFilter,
	timing: PollTiming = { now: clock.now() },
): Promise<PollResult<Listed, Fetched>> {
	const listing = await source.listJobs();
	const fetchedById = new Map<string, Fetched>();
	const followUps: FollowUpResult[] = [];
	for (const job of jobsToFollowUp(previous, listing, filter, timing.now)) {
		if (timing.outOfTime?.() === true) break;
		let fetched: Fetched | undefined;
		try {
			fetched = await source.getJob(job);
		} catch {
			// One job the service fails to answer for is counted (warned about after a few polls); the others go on.
			// A request cut short by the end of the poll's time is no answer at all: the job waits for its next turn.
			if (timing.outOfTime?.() !== true) followUps.push({ id: job.id, unreachable: true });
			continue;
		}
		if (fetched === undefined) {
			followUps.push({ id: job.id, gone: true });
			continue;
		}
		fetchedById.set(job.id, fetched);
		followUps.push(fetched);
	}
	const outcome = advancePoll(
		previous,
		listing,
		followUps,
		filter,
		timing.now,
		timing.activatedAt,
		timing.endedSince,
	);
	const listedById = new Map(listing.map((job) => [job.id, job]));
	return {
		endings: outcome.emit.map((job) => ({
			job,
			listed: listedById.get(job.id),
			fetched: fetchedById.get(job.id),
		})),
		state: outcome.state,
		abandoned: outcome.abandoned,
		unwatched: outcome.unwatched,
		unreachable: outcome.unreachable,
		mayHaveMissedJobs: outcome.mayHaveMissedJobs,
	};
}
