/**
 * The trigger's state machine, pure: what the saved state is, which jobs a poll follows up, and how a poll's
 * listing and follow-ups turn the previous state into the endings to emit and the next state. No n8n context and
 * nothing kept between calls: the state comes in and goes out. pollJobs.ts makes the requests that feed it;
 * savedState.ts keeps the state in n8n's static data.
 */
import { smallestUlidAt, ulidTime } from '../transport/jobIds';
import { isEnded, isJobStatus, isWorkflow, jobsListingSize } from '../transport/schemas';
import type { JobEnding, JobStatus, Workflow } from '../transport/schemas';
import {
	CLOCK_SKEW_TOLERANCE_MS,
	FAILED_CHECKS_BEFORE_WARNING,
	FOLLOW_UPS_PER_POLL,
	MAX_FOLLOWED_JOBS,
	MAX_WATCHED_FAILED_JOBS,
	RETRY_CHECK_INTERVAL_MS,
	RETRY_WATCH_FOLLOW_UPS,
	RETRY_WATCH_MS,
} from './pollLimits';

/** Version 1 throughout: later fields are optional, so states saved before them read as they are. */
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
	/** The job's attempt count from its detail, which tells a retry's ending from the one before. */
	attempts?: number;
	/** When the service says the job ended (its `completedAt`, on the service's clock), where it says so. */
	endedAt?: number;
}

/** A job as the saved state remembers it: what the service said, and what the trigger keeps about it. */
export interface RememberedJob extends TrackedJob {
	/** Per-job requests in a row that failed for this job (it left the listing). */
	failedChecks?: number;
	/** Polls in a row in which the item of this job's ending could not be made. */
	failedPolls?: number;
}

/**
 * A job that left the listing and was fetched on its own; `gone` when the service no longer has it,
 * `unreachable` when the request failed.
 */
export type FollowUpResult =
	| TrackedJob
	| { id: string; gone: true }
	| { id: string; unreachable: true };

export interface PollState {
	version: typeof STATE_VERSION;
	/**
	 * A job the state does not know is new only above this id: the smallest id of a full listing, lowered by the
	 * clock-skew tolerance. An older unknown job re-entered the listing; it is not new.
	 */
	floor: string | null;
	/**
	 * The jobs of the last listing (newest first), then those that left it: unfinished ones and failed ones that
	 * may still be retried (least recently checked first), and ended ones above the floor.
	 */
	jobs: RememberedJob[];
	/** When failed jobs watched for a retry were last checked (the node's clock). */
	watchedAt?: number;
}

export interface PollOutcome {
	/** Jobs whose ending matches the filter, oldest first; each ending appears in exactly one outcome. */
	emit: RememberedJob[];
	state: PollState;
	/** Unfinished jobs no longer followed because more than MAX_FOLLOWED_JOBS had left the listing. */
	abandoned: TrackedJob[];
	/** Failed jobs no longer watched for a retry because more than MAX_WATCHED_FAILED_JOBS had left the listing. */
	unwatched: TrackedJob[];
	/** Followed jobs whose per-job request failed FAILED_CHECKS_BEFORE_WARNING polls in a row or more. */
	unreachable: RememberedJob[];
	/** A full listing of jobs all new to the state: more jobs may have been created since the last poll than it shows. */
	mayHaveMissedJobs: boolean;
}

export function matchesFilter(job: TrackedJob, filter: TriggerFilter): boolean {
	return (
		isEnded(job.status) &&
		filter.events.includes(job.status) &&
		filter.workflows.includes(job.workflow)
	);
}

function compareIds(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** An id lowered by the clock-skew tolerance; an id that is not a ULID stays as it is. */
function lowered(id: string): string {
	const time = ulidTime(id);
	return time === undefined ? id : smallestUlidAt(time - CLOCK_SKEW_TOLERANCE_MS);
}

function smallestId(jobs: TrackedJob[]): string | null {
	let smallest: string | null = null;
	for (const job of jobs)
		if (smallest === null || compareIds(job.id, smallest) < 0) smallest = job.id;
	return smallest;
}

function higherFloor(a: string | null, b: string | null): string | null {
	if (a === null) return b;
	if (b === null) return a;
	return compareIds(a, b) >= 0 ? a : b;
}

/**
 * The first full listing sets the floor at its oldest job: nothing older was ever seen, so nothing older can be told
 * new from re-entered. Later floors stay the clock-skew tolerance below the listing's oldest job, as every job
 * between was seen in a listing. The floor only moves forward, so a job once judged old never looks new again.
 */
function nextFloor(previous: string | null, listing: TrackedJob[]): string | null {
	const smallest = listing.length >= jobsListingSize ? smallestId(listing) : null;
	if (smallest === null) return previous;
	return previous === null ? smallest : higherFloor(previous, lowered(smallest));
}

function isAboveFloor(id: string, floor: string | null): boolean {
	return floor === null || compareIds(id, floor) > 0;
}

/**
 * A job the state does not know is new above the floor, and also up to the clock-skew tolerance below it when the
 * listing (newest first, by the service's own order) shows it ahead of a job the state knows: the first floor sits
 * at the oldest job of the first full listing, so a skewed new id just below it would otherwise be taken for old.
 * An old job that re-enters the listing comes after every known job, and is judged by the floor alone.
 */
function isNewJob(id: string, floor: string | null, aheadOfKnownJob: boolean): boolean {
	if (isAboveFloor(id, floor)) return true;
	return aheadOfKnownJob && floor !== null && isAboveFloor(id, lowered(floor));
}

/** The job as the service reports it; `keep` carries the trigger's own counts over. */
function copy(
	job: TrackedJob,
	keep: Pick<RememberedJob, 'failedChecks' | 'failedPolls'> = {},
): RememberedJob {
	const result: RememberedJob = { id: job.id, workflow: job.workflow, status: job.status };
	if (job.attempts !== undefined) result.attempts = job.attempts;
	if (keep.failedChecks) result.failedChecks = keep.failedChecks;
	if (keep.failedPolls) result.failedPolls = keep.failedPolls;
	return result;
}

/** An ending to emit: the job as the service reports it, with the polls its item has failed in so far. */
function endingOf(job: TrackedJob, failedPolls: number | undefined): RememberedJob {
	const ending: RememberedJob = { id: job.id, workflow: job.workflow, status: job.status };
	if (failedPolls) ending.failedPolls = failedPolls;
	return ending;
}

function isCount(value: unknown): boolean {
	return value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
}

function isRememberedJob(value: unknown): value is RememberedJob {
	if (typeof value !== 'object' || value === null) return false;
	const job = value as Record<string, unknown>;
	return (
		typeof job.id === 'string' &&
		isWorkflow(job.workflow) &&
		isJobStatus(job.status) &&
		isCount(job.attempts) &&
		isCount(job.failedChecks) &&
		isCount(job.failedPolls)
	);
}

/**
 * Reads a state saved by an earlier poll, also one saved before attempt and failure counts were kept (its jobs carry
 * on without them); anything unrecognisable counts as no state (a fresh start).
 */
export function readPollState(saved: unknown): PollState | undefined {
	if (typeof saved !== 'object' || saved === null) return undefined;
	const candidate = saved as { version?: unknown; floor?: unknown; jobs?: unknown };
	if (candidate.version !== STATE_VERSION || !Array.isArray(candidate.jobs)) return undefined;
	if (candidate.floor !== null && typeof candidate.floor !== 'string') return undefined;
	if (!candidate.jobs.every(isRememberedJob)) return undefined;
	const jobs = (candidate.jobs as RememberedJob[]).map((job) => copy(job, job));
	const watchedAt = (saved as { watchedAt?: unknown }).watchedAt;
	const state: PollState = { version: STATE_VERSION, floor: candidate.floor, jobs };
	if (typeof watchedAt === 'number' && Number.isFinite(watchedAt)) state.watchedAt = watchedAt;
	return state;
}

/** A failed job outside the listing that may still be retried: it is checked now and then for a new ending. */
function isWatchedForRetry(job: RememberedJob, now: number): boolean {
	const createdAt = ulidTime(job.id);
	return job.status === 'failed' && createdAt !== undefined && createdAt + RETRY_WATCH_MS > now;
}

/**
 * The jobs outside the listing that are due a per-job request this poll, unfinished ones first. `now` (the node's
 * clock, read by the caller) decides which failed jobs are due a check for a retry.
 */
export function jobsToFollowUp(
	state: PollState | undefined,
	listing: TrackedJob[],
	filter: TriggerFilter,
	now: number,
	limit = FOLLOW_UPS_PER_POLL,
): TrackedJob[] {
	if (!state) return [];
	const listed = new Set(listing.map((job) => job.id));
	const outside = state.jobs.filter(
		(job) => !listed.has(job.id) && filter.workflows.includes(job.workflow),
	);
	const unfinished = outside.filter((job) => !isEnded(job.status));
	const due = state.watchedAt === undefined || now - state.watchedAt >= RETRY_CHECK_INTERVAL_MS;
	const watched = due ? outside.filter((job) => isWatchedForRetry(job, now)) : [];
	const watchedTurns = Math.min(
		watched.length,
		Math.max(limit - unfinished.length, Math.min(RETRY_WATCH_FOLLOW_UPS, limit)),
	);
	return [...unfinished.slice(0, limit - watchedTurns), ...watched.slice(0, watchedTurns)].map(
		(job) => copy(job),
	);
}

/** What a per-job request says about a followed or watched job: a new ending, still running, or nothing new. */
function judgeFollowUp(
	before: RememberedJob,
	result: TrackedJob,
): 'ended' | 'running' | 'unchanged' {
	if (!isEnded(result.status)) return 'running';
	if (!isEnded(before.status) || before.status !== result.status) return 'ended';
	// Failed before and failed now: a retry ran in between only if the attempt count went up.
	const retried =
		before.attempts !== undefined &&
		result.attempts !== undefined &&
		result.attempts > before.attempts;
	return retried ? 'ended' : 'unchanged';
}

/**
 * Whether a listed job ended after `since`: by the service's `completedAt` where the listing gives it, else by its
 * id's creation time (a job created after `since` ended after it too). A job with neither counts as ended before.
 */
function endedSince(job: TrackedJob, since: number): boolean {
	const endedAt = job.endedAt ?? ulidTime(job.id);
	return endedAt !== undefined && endedAt >= since;
}

/**
 * One poll: the previous state, the current listing and the follow-up results give the endings to emit and the next
 * state. Without a previous state the listing is the baseline: of the jobs that already ended, only those that ended
 * after `activatedAt` (the activation's time on the node's clock, lowered by the clock-skew tolerance, as the
 * service's clock may be behind) are emitted; without `activatedAt` none is.
 * `newsSince` instead (the node's clock, taken as it is) is the activation poll's own window.
 * `now` (the node's clock) decides which failed jobs may still be retried.
 */
export function advancePoll(
	previous: PollState | undefined,
	listing: TrackedJob[],
	followUps: FollowUpResult[],
	filter: TriggerFilter,
	now: number,
	activatedAt?: number,
	newsSince?: number,
): PollOutcome {
	const known = new Map((previous?.jobs ?? []).map((job) => [job.id, job]));
	const windowJobs = listing.map((job) => {
		const before = known.get(job.id);
		const attempts =
			job.attempts ?? (before && before.status === job.status ? before.attempts : undefined);
		return copy({ ...job, attempts });
	});
	if (!previous) {
		const state: PollState = {
			version: STATE_VERSION,
			floor: nextFloor(null, windowJobs),
			jobs: windowJobs,
		};
		const since =
			newsSince ?? (activatedAt === undefined ? undefined : activatedAt - CLOCK_SKEW_TOLERANCE_MS);
		const emit =
			since === undefined
				? []
				: listing
						.filter((job) => matchesFilter(job, filter) && endedSince(job, since))
						.map((job) => endingOf(job, undefined))
						.sort((a, b) => compareIds(a.id, b.id));
		return {
			emit,
			state,
			abandoned: [],
			unwatched: [],
			unreachable: [],
			mayHaveMissedJobs: false,
		};
	}

	const endings: RememberedJob[] = [];
	let lastKnown = -1;
	windowJobs.forEach((job, index) => {
		if (known.has(job.id)) lastKnown = index;
	});
	for (const [index, job] of windowJobs.entries()) {
		const before = known.get(job.id);
		const isNew = before === undefined && isNewJob(job.id, previous.floor, index < lastKnown);
		// A known job ends anew when it was unfinished, or when a retry turned one ending into the other between polls.
		const endedNow =
			isEnded(job.status) &&
			(before ? !isEnded(before.status) || before.status !== job.status : isNew);
		// An ending held back by an earlier poll keeps the count of polls its item failed in.
		if (endedNow) endings.push(endingOf(job, before?.failedPolls));
	}

	const floor = nextFloor(previous.floor, windowJobs);
	const listed = new Set(windowJobs.map((job) => job.id));
	const results = new Map(followUps.map((result) => [result.id, result]));
	const unchecked: RememberedJob[] = [];
	const checked: RememberedJob[] = [];
	const unreachable: RememberedJob[] = [];
	for (const job of previous.jobs) {
		if (listed.has(job.id)) continue;
		const result = results.get(job.id);
		if (result === undefined) {
			unchecked.push(copy(job, job));
		} else if ('gone' in result) {
			continue;
		} else if ('unreachable' in result) {
			const failedChecks = (job.failedChecks ?? 0) + 1;
			const kept = copy(job, { ...job, failedChecks });
			if (failedChecks >= FAILED_CHECKS_BEFORE_WARNING) unreachable.push(kept);
			checked.push(kept);
		} else {
			const reported = copy(result);
			const verdict = judgeFollowUp(job, result);
			if (verdict === 'ended') endings.push(endingOf(reported, job.failedPolls));
			// An ending found by a follow-up is remembered too: a failed one is watched for its next retry.
			checked.push(
				verdict === 'unchanged'
					? copy({ ...job, attempts: result.attempts ?? job.attempts })
					: reported,
			);
		}
	}

	// Checked jobs go to the back so every followed job gets its turn; an ended job stays while it may be retried.
	const outside = [...unchecked, ...checked].filter(
		(job) =>
			filter.workflows.includes(job.workflow) &&
			(!isEnded(job.status) || isWatchedForRetry(job, now)),
	);
	const capped = capRemembered(outside);
	const mayHaveMissedJobs =
		previous.jobs.length > 0 &&
		windowJobs.length >= jobsListingSize &&
		windowJobs.every((job) => !known.has(job.id));
	const checkedWatched = previous.jobs.some(
		(job) => job.status === 'failed' && results.has(job.id) && !listed.has(job.id),
	);
	// The first failed job to be watched waits its interval too: it was just seen, no retry is due yet.
	const watchedAt = checkedWatched
		? now
		: (previous.watchedAt ?? (capped.kept.some((job) => isEnded(job.status)) ? now : undefined));
	const emit = endings
		.filter((job) => matchesFilter(job, filter))
		.sort((a, b) => compareIds(a.id, b.id));
	return {
		emit,
		state: {
			version: STATE_VERSION,
			floor,
			jobs: [...windowJobs, ...capped.kept],
			...(watchedAt === undefined ? {} : { watchedAt }),
		},
		abandoned: capped.abandoned,
		unwatched: capped.unwatched,
		unreachable,
		mayHaveMissedJobs,
	};
}

/**
 * Keeps the saved state small: at most MAX_FOLLOWED_JOBS unfinished jobs and MAX_WATCHED_FAILED_JOBS failed jobs
 * watched for a retry, the newest of each, are kept; the others are reported.
 */
function capRemembered(outside: RememberedJob[]): {
	kept: RememberedJob[];
	abandoned: TrackedJob[];
	unwatched: TrackedJob[];
} {
	const newestFirst = (jobs: RememberedJob[]) => [...jobs].sort((a, b) => compareIds(b.id, a.id));
	const abandoned = new Set(
		newestFirst(outside.filter((job) => !isEnded(job.status)))
			.slice(MAX_FOLLOWED_JOBS)
			.map((job) => job.id),
	);
	const unwatched = new Set(
		newestFirst(outside.filter((job) => isEnded(job.status)))
			.slice(MAX_WATCHED_FAILED_JOBS)
			.map((job) => job.id),
	);
	const letGo = (ids: Set<string>) =>
		outside
			.filter((job) => ids.has(job.id))
			.map((job) => copy(job))
			.reverse();
	return {
		kept: outside.filter((job) => !abandoned.has(job.id) && !unwatched.has(job.id)),
		abandoned: letGo(abandoned),
		unwatched: letGo(unwatched),
	};
}

/**
 * The state as if these endings had not been seen yet, so the next poll finds them again: a job whose item could
 * not be made is kept as unfinished (followed through its own route once it leaves the listing), never dropped.
 * `failed` says the item failed (counted towards FAILED_POLLS_BEFORE_REPORT); otherwise the poll ran out of time.
 */
export function holdBackEndings(
	state: PollState,
	endings: RememberedJob[],
	failed = true,
): PollState {
	const held = new Map(endings.map((job) => [job.id, job]));
	const hold = (job: RememberedJob): RememberedJob => {
		const failedPolls = (job.failedPolls ?? 0) + (failed ? 1 : 0);
		return { ...copy(job, { failedChecks: job.failedChecks, failedPolls }), status: 'processing' };
	};
	const jobs = state.jobs.map((job) => {
		const ending = held.get(job.id);
		return ending ? hold({ ...job, failedPolls: ending.failedPolls }) : job;
	});
	const present = new Set(jobs.map((job) => job.id));
	for (const job of endings) if (!present.has(job.id)) jobs.push(hold(job));
	return { ...state, jobs };
}
