import type { PollState, TrackedJob, TriggerFilter } from './pollState';
import { advancePoll, jobsToFollowUp } from './pollState';

/** Where a poll reads jobs from: the jobs listing and the per-job route. */
export interface JobSource<Listed extends TrackedJob, Fetched extends TrackedJob> {
	listJobs(): Promise<Listed[]>;
	/** Resolves to undefined when the service no longer has the job. */
	getJob(job: TrackedJob): Promise<Fetched | undefined>;
}

/** A job to emit, with what the poll already holds about it (its listing entry or its full job). */
export interface JobEndingFound<Listed, Fetched> {
	job: TrackedJob;
	listed?: Listed;
	fetched?: Fetched;
}

export interface PollResult<Listed, Fetched> {
	endings: Array<JobEndingFound<Listed, Fetched>>;
	state: PollState;
	abandoned: TrackedJob[];
	mayHaveMissedJobs: boolean;
}

/** One listing request plus one request per followed job; nothing is written anywhere, the caller keeps the state. */
export async function pollJobs<Listed extends TrackedJob, Fetched extends TrackedJob>(
	previous: PollState | undefined,
	source: JobSource<Listed, Fetched>,
	filter: TriggerFilter,
): Promise<PollResult<Listed, Fetched>> {
	const listing = await source.listJobs();
	const fetchedById = new Map<string, Fetched>();
	const followUps = [];
	for (const job of jobsToFollowUp(previous, listing, filter)) {
		let fetched: Fetched | undefined;
		try {
			fetched = await source.getJob(job);
		} catch {
			// One job the service fails to answer for stays as it was (checked again next poll); the others go on.
			continue;
		}
		if (fetched === undefined) {
			followUps.push({ id: job.id, gone: true as const });
			continue;
		}
		fetchedById.set(job.id, fetched);
		followUps.push({ id: job.id, workflow: job.workflow, status: fetched.status });
	}
	const outcome = advancePoll(previous, listing, followUps, filter);
	const listedById = new Map(listing.map((job) => [job.id, job]));
	return {
		endings: outcome.emit.map((job) => ({
			job,
			listed: listedById.get(job.id),
			fetched: fetchedById.get(job.id),
		})),
		state: outcome.state,
		abandoned: outcome.abandoned,
		mayHaveMissedJobs: outcome.mayHaveMissedJobs,
	};
}
