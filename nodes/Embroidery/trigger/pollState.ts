import { isEnded, isJobStatus, isWorkflow } from '../transport/schemas';
import type { JobEnding, JobStatus, Workflow } from '../transport/schemas';

/** The jobs listing shows at most this many jobs, newest first. */
export const LISTING_SIZE = 50;

/** Jobs followed up outside the listing are capped so the saved state stays small. */
export const MAX_FOLLOWED_JOBS = 200;

/** Per-job requests a single poll spends on jobs that left the listing. */
export const FOLLOW_UPS_PER_POLL = 10;

export const STATE_VERSION = 1;

export interface TriggerFilter {
	events: JobEnding[];
	workflows: Workflow[];
}

/** What the trigger needs to know about a job: where to ask for it and how far it got. */
export interface TrackedJob {
	id: string;
	workflow: Workflow;
	status: JobStatus;
}

/** A job that left the listing and was fetched on its own; `gone` when the service no longer has it. */
export type FollowUpResult = TrackedJob | { id: string; gone: true };

export interface PollState {
	version: typeof STATE_VERSION;
	/**
	 * Smallest job id of the last full listing (ids are ULIDs, so they sort by creation time).
	 * A job the state does not know that is older than this re-entered the listing; it is not new.
	 */
	floor: string | null;
	/** The jobs of the last listing (newest first), then the unfinished jobs that left it (least recently checked first). */
	jobs: TrackedJob[];
}

export interface PollOutcome {
	/** Jobs whose ending matches the filter, oldest first; each ending appears in exactly one outcome. */
	emit: TrackedJob[];
	state: PollState;
	/** Unfinished jobs that were forgotten because more than MAX_FOLLOWED_JOBS had left the listing. */
	abandoned: TrackedJob[];
	/** A full listing of jobs all new to the state: more jobs may have been created since the last poll than it shows. */
	mayHaveMissedJobs: boolean;
}

export function matchesFilter(job: TrackedJob, filter: TriggerFilter): boolean {
	return (
		isEnded(job.status) && filter.events.includes(job.status) && filter.workflows.includes(job.workflow)
	);
}

function compareIds(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function smallestId(jobs: TrackedJob[]): string | null {
	let smallest: string | null = null;
	for (const job of jobs) if (smallest === null || compareIds(job.id, smallest) < 0) smallest = job.id;
	return smallest;
}

function nextFloor(previous: string | null, listing: TrackedJob[]): string | null {
	const listingFloor = listing.length >= LISTING_SIZE ? smallestId(listing) : null;
	if (previous === null) return listingFloor;
	if (listingFloor === null) return previous;
	// The floor only moves forward, so a job once judged old never looks new again.
	return compareIds(listingFloor, previous) > 0 ? listingFloor : previous;
}

function copy(job: TrackedJob): TrackedJob {
	return { id: job.id, workflow: job.workflow, status: job.status };
}

/** Reads a state saved by an earlier poll; anything unrecognisable counts as no state (a fresh start). */
export function readPollState(saved: unknown): PollState | undefined {
	if (typeof saved !== 'object' || saved === null) return undefined;
	const candidate = saved as Partial<PollState>;
	if (candidate.version !== STATE_VERSION || !Array.isArray(candidate.jobs)) return undefined;
	if (candidate.floor !== null && typeof candidate.floor !== 'string') return undefined;
	if (!candidate.jobs.every(isTrackedJob)) return undefined;
	return { version: STATE_VERSION, floor: candidate.floor, jobs: candidate.jobs.map(copy) };
}

function isTrackedJob(value: unknown): value is TrackedJob {
	if (typeof value !== 'object' || value === null) return false;
	const job = value as Record<string, unknown>;
	return (
		typeof job.id === 'string' &&
		isWorkflow(job.workflow) &&
		isJobStatus(job.status)
	);
}

/** The unfinished jobs that left the listing and are due a per-job request this poll. */
export function jobsToFollowUp(
	state: PollState | undefined,
	listing: TrackedJob[],
	filter: TriggerFilter,
	limit = FOLLOW_UPS_PER_POLL,
): TrackedJob[] {
	if (!state) return [];
	const listed = new Set(listing.map((job) => job.id));
	return state.jobs
		.filter(
			(job) => !listed.has(job.id) && !isEnded(job.status) && filter.workflows.includes(job.workflow),
		)
		.slice(0, limit)
		.map(copy);
}

/**
 * One poll: the previous state, the current listing and the follow-up results give the endings to emit and the next state.
 * Without a previous state the listing is the baseline: jobs that already ended are never emitted.
 */
export function advancePoll(
	previous: PollState | undefined,
	listing: TrackedJob[],
	followUps: FollowUpResult[],
	filter: TriggerFilter,
): PollOutcome {
	const windowJobs = listing.map(copy);
	if (!previous) {
		return {
			emit: [],
			state: { version: STATE_VERSION, floor: nextFloor(null, windowJobs), jobs: windowJobs },
			abandoned: [],
			mayHaveMissedJobs: false,
		};
	}

	const known = new Map(previous.jobs.map((job) => [job.id, job]));
	const endings: TrackedJob[] = [];
	for (const job of windowJobs) {
		const before = known.get(job.id);
		const isNew =
			before === undefined && (previous.floor === null || compareIds(job.id, previous.floor) >= 0);
		// A known job ends anew when it was unfinished, or when a retry turned one ending into the other between polls.
		const endedNow =
			isEnded(job.status) &&
			(before ? !isEnded(before.status) || before.status !== job.status : isNew);
		if (endedNow) endings.push(job);
	}

	const listed = new Set(windowJobs.map((job) => job.id));
	const results = new Map(followUps.map((result) => [result.id, result]));
	const unchecked: TrackedJob[] = [];
	const checked: TrackedJob[] = [];
	for (const job of previous.jobs) {
		if (listed.has(job.id) || isEnded(job.status) || !filter.workflows.includes(job.workflow)) continue;
		const result = results.get(job.id);
		if (result === undefined) unchecked.push(copy(job));
		else if ('gone' in result) continue;
		else if (isEnded(result.status)) endings.push({ ...copy(job), status: result.status });
		else checked.push({ ...copy(job), status: result.status });
	}

	// Checked jobs go to the back so every followed job gets its turn.
	const followed = [...unchecked, ...checked];
	const abandoned: TrackedJob[] = [];
	if (followed.length > MAX_FOLLOWED_JOBS) {
		const newestFirst = [...followed].sort((a, b) => compareIds(b.id, a.id));
		const dropped = new Set(newestFirst.slice(MAX_FOLLOWED_JOBS).map((job) => job.id));
		for (let index = followed.length - 1; index >= 0; index--) {
			if (dropped.has(followed[index].id)) abandoned.push(...followed.splice(index, 1));
		}
	}

	const mayHaveMissedJobs =
		previous.jobs.length > 0 &&
		windowJobs.length >= LISTING_SIZE &&
		windowJobs.every((job) => !known.has(job.id));
	const emit = endings
		.filter((job) => matchesFilter(job, filter))
		.sort((a, b) => compareIds(a.id, b.id));
	return {
		emit,
		state: {
			version: STATE_VERSION,
			floor: nextFloor(previous.floor, windowJobs),
			jobs: [...windowJobs, ...followed],
		},
		abandoned,
		mayHaveMissedJobs,
	};
}

/**
 * The state as if these endings had not been seen yet, so the next poll finds them again: a job whose item could
 * not be made is kept as unfinished (followed through its own route once it leaves the listing), never dropped.
 */
export function holdBackEndings(state: PollState, endings: TrackedJob[]): PollState {
	const held = new Set(endings.map((job) => job.id));
	const jobs = state.jobs.map((job) => (held.has(job.id) ? { ...copy(job), status: 'processing' as const } : job));
	const present = new Set(jobs.map((job) => job.id));
	for (const job of endings) if (!present.has(job.id)) jobs.push({ ...copy(job), status: 'processing' });
	return { ...state, jobs };
}
