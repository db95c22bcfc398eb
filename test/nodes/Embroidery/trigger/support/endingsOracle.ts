/**
 * The model the trigger's endings are checked against (pollState.model.test.ts): the service and trigger events a
 * sequence is made of, the oracle that knows every ending of every job and which exception of the README covers
 * it, and n8n around the trigger keeping its static data the way n8n does.
 */
import type {
	PollState,
	RememberedJob,
	TrackedJob,
	TriggerFilter,
} from '../../../../../nodes/Embroidery/trigger/pollState';
import {
	FAILED_POLLS_BEFORE_REPORT,
	MAX_FOLLOWED_JOBS,
	MAX_WATCHED_FAILED_JOBS,
	holdBackEndings,
	readPollState,
} from '../../../../../nodes/Embroidery/trigger/pollState';
import { pollJobs } from '../../../../../nodes/Embroidery/trigger/pollJobs';
import type { JobStatus, Workflow } from '../../../../../nodes/Embroidery/transport/schemas';
import { isEnded } from '../../../../../nodes/Embroidery/transport/schemas';
import { JobsInMemory } from './jobsInMemory';

export type ServiceEvent =
	/** `endsAtOnce`: the job runs to its end before any poll (a source the service refuses at once, say). */
	| {
			kind: 'create';
			workflow: Workflow;
			skewMs: number;
			endsAtOnce: 'completed' | 'failed' | null;
	  }
	| { kind: 'burst'; count: number }
	| { kind: 'run'; pick: number; ending: 'completed' | 'failed' }
	| { kind: 'retry'; pick: number }
	| { kind: 'unreachable'; pick: number; on: boolean }
	| { kind: 'time'; ms: number };

export type PollEvent = {
	kind: 'poll';
	listingRefused: boolean;
	followUpsBeforeTimeUp: number | null;
	/** Items made before the poll's time ran out; the endings after them are left to the next poll. */
	itemsBeforeTimeUp: number | null;
};

export type TriggerEvent =
	| PollEvent
	| { kind: 'restart' }
	/** The next poll that emits dies before n8n wrote both the trigger's state and the execution. */
	| { kind: 'crash'; lost: 'state' | 'execution' };

export type Step = ServiceEvent | TriggerEvent;

/** The README's exceptions, each judged from what happened to the job, not from what the trigger asked. */
export type Exemption =
	| 'never listed: more than 50 jobs created between two polls'
	| 'retried before the trigger looked at this ending'
	| 'same ending again, unseen in between'
	| 'forgotten by a restart'
	| 'lost with an execution a crash did not save'
	| 'let go by the caps';

/** One ending of one job: its run (attempt), how it ended, and what the trigger could know of it. */
export interface Ending {
	id: string;
	attempt: number;
	status: 'completed' | 'failed';
	/** A poll that kept what it saw read the job (in the listing or through its own route) while this was its ending. */
	lookedAt: boolean;
	/** A retry replaced this ending with a new run. */
	replaced: boolean;
	/** Emissions of this ending, and whether each was in a poll whose state a crash lost. */
	emissions: Array<{ crashed: boolean }>;
	exempt?: Exemption;
}

/** The oracle's view of the service: every job's endings, and which run it is in now. */
export class Oracle {
	readonly endings: Ending[] = [];

	private readonly current = new Map<string, Ending>();

	/** Jobs some listing showed to a poll. */
	readonly listed = new Set<string>();

	/** Jobs a poll saw queued or processing since their last ending, in what the trigger still remembers. */
	private readonly seenUnfinished = new Set<string>();

	private readonly attempts = new Map<string, number>();

	/** How each job last ended, kept across its retries. */
	private readonly lastStatus = new Map<string, 'completed' | 'failed'>();

	/** Jobs the trigger can no longer find, and why: their endings not yet emitted, and all later ones, are exempt. */
	private readonly unfindable = new Map<string, Exemption>();

	cannotFind(id: string, why: Exemption): void {
		if (!this.unfindable.has(id)) this.unfindable.set(id, why);
		const ending = this.current.get(id);
		if (ending && ending.emissions.length === 0) ending.exempt ??= why;
	}

	ended(id: string, status: 'completed' | 'failed'): void {
		const before = this.lastStatus.get(id);
		const ending: Ending = {
			id,
			attempt: this.attempts.get(id) ?? 1,
			status,
			lookedAt: false,
			replaced: false,
			emissions: [],
			exempt: this.unfindable.get(id),
		};
		// Ended, retried and ended the same way with no look in between: the listing shows the same ending as before.
		if (!ending.exempt && before === status && !this.seenUnfinished.has(id))
			ending.exempt = 'same ending again, unseen in between';
		this.current.set(id, ending);
		this.lastStatus.set(id, status);
		this.seenUnfinished.delete(id);
		this.endings.push(ending);
	}

	retried(id: string): void {
		this.attempts.set(id, (this.attempts.get(id) ?? 1) + 1);
		const ending = this.current.get(id);
		if (ending) ending.replaced = true;
		this.current.delete(id);
	}

	/** What one poll read of a job, taken into account once the poll kept it (not held back, not lost). */
	lookedAt(id: string, status: JobStatus): void {
		const ending = this.current.get(id);
		if (ending && ending.status === status) ending.lookedAt = true;
		if (!isEnded(status)) this.seenUnfinished.add(id);
	}

	emitted(id: string, status: string, crashed: boolean): void {
		const ending = this.current.get(id);
		if (!ending || ending.status !== status)
			throw new Error(`emitted ${id}:${status}, which is not the job's ending now`);
		ending.emissions.push({ crashed });
	}

	/** The endings a poll emitted into an execution that a crash did not let n8n write. */
	lostWithExecution(jobs: RememberedJob[]): void {
		for (const job of jobs) {
			const ending = this.current.get(job.id);
			if (ending && ending.emissions.length === 0)
				ending.exempt ??= 'lost with an execution a crash did not save';
		}
	}

	/**
	 * What the trigger saw only in memory is gone. A job ended, retried and ended the same way again that the saved
	 * state does not hold as unfinished shows the same ending as before: that ending, not yet emitted, is the limit.
	 */
	restarted(saved: PollState | undefined): void {
		const unfinished = new Set(
			(saved?.jobs ?? []).filter((job) => !isEnded(job.status)).map((job) => job.id),
		);
		for (const id of this.seenUnfinished) if (!unfinished.has(id)) this.seenUnfinished.delete(id);
		for (const ending of this.current.values()) {
			const sameAsBefore = this.endings.some(
				(earlier) =>
					earlier.id === ending.id &&
					earlier.attempt < ending.attempt &&
					earlier.status === ending.status,
			);
			if (sameAsBefore && ending.emissions.length === 0 && !unfinished.has(ending.id))
				ending.exempt ??= 'same ending again, unseen in between';
		}
	}
}

/**
 * n8n around the trigger: static data in memory between polls, written by the activation poll and by polls that
 * emit; the item of a job whose detail request fails is held back, and reported on the item after a few polls.
 */
export class ModelledN8n {
	saved: string | undefined;

	memory: PollState | undefined;

	activating = true;

	crashNext: 'state' | 'execution' | undefined;

	/** Jobs the trigger knew before a restart that the saved state does not hold: found again only if still listed. */
	private forgetting = new Set<string>();

	/** Polls that found a listing of jobs all created after the previous one, and whether each warned. */
	readonly gaps: Array<{ warned: boolean }> = [];

	constructor(
		private readonly jobs: JobsInMemory,
		private readonly oracle: Oracle,
		private readonly filter: TriggerFilter,
	) {}

	async poll(event: PollEvent): Promise<void> {
		let followUps = 0;
		const source = this.jobs.source();
		const seen: TrackedJob[] = [];
		const outOfTime = () =>
			event.followUpsBeforeTimeUp !== null && followUps >= event.followUpsBeforeTimeUp;
		let listed: string[] = [];
		let skipped: string[] = [];
		const result = await pollJobs(
			this.memory,
			{
				listJobs: async () => {
					if (event.listingRefused) throw new Error('429 Too Many Attempts');
					const listing = await source.listJobs();
					listed = listing.map((job) => job.id);
					// A job created after the last listing and gone from this one: no poll ever saw it.
					skipped = this.jobs
						.all()
						.map((job) => job.id)
						.filter(
							(id) => !this.oracle.listed.has(id) && !this.missed.has(id) && !listed.includes(id),
						);
					seen.push(...listing);
					return listing;
				},
				getJob: async (job) => {
					followUps++;
					const found = await source.getJob(job);
					if (found) seen.push(found);
					return found;
				},
			},
			this.filter,
			{ now: this.jobs.now(), outOfTime },
		).catch(() => undefined);
		if (!result) return;
		for (const id of listed) this.oracle.listed.add(id);
		// A restart forgets a job that is neither in the saved state nor in the first listing after it.
		for (const id of this.forgetting)
			if (!listed.includes(id)) this.oracle.cannotFind(id, 'forgotten by a restart');
		this.forgetting = new Set();
		for (const id of skipped) this.missed.add(id);
		if (skipped.length > 0 && this.memory !== undefined)
			this.gaps.push({ warned: result.mayHaveMissedJobs });
		this.checkCaps(result.state, result.abandoned, result.unwatched);
		for (const job of [...result.abandoned, ...result.unwatched])
			this.oracle.cannotFind(job.id, 'let go by the caps');

		// Items are made oldest first; one whose detail request fails is held back, until it is reported on the item.
		const endings = result.endings.map(({ job }) => job);
		const made = endings.slice(0, event.itemsBeforeTimeUp ?? endings.length);
		const failedItems = made.filter(
			(job) =>
				this.jobs.unreachable.has(job.id) && (job.failedPolls ?? 0) < FAILED_POLLS_BEFORE_REPORT,
		);
		const emitted = made.filter((job) => !failedItems.includes(job));
		const postponed = endings.slice(made.length);
		const heldBack = new Set([...failedItems, ...postponed].map((job) => job.id));
		for (const job of seen)
			if (!(heldBack.has(job.id) && isEnded(job.status))) this.oracle.lookedAt(job.id, job.status);
		const state = holdBackEndings(
			holdBackEndings(result.state, failedItems, true),
			postponed,
			false,
		);

		const crash = emitted.length > 0 ? this.crashNext : undefined;
		if (crash !== undefined) this.crashNext = undefined;
		if (crash === 'execution') {
			// n8n wrote the trigger's state, then died before the execution reached the database.
			this.oracle.lostWithExecution(emitted);
			this.memory = state;
			this.saved = JSON.stringify(state);
			this.restart();
			return;
		}
		for (const job of emitted) this.oracle.emitted(job.id, job.status, crash === 'state');
		this.memory = state;
		if (crash === 'state') {
			// n8n started the execution, then died before the trigger's state reached the database.
			this.restart();
			return;
		}
		if (emitted.length > 0 || this.activating) this.saved = JSON.stringify(this.memory);
		this.activating = false;
	}

	/** Jobs created and pushed out of the listing between two polls. */
	readonly missed = new Set<string>();

	/** The caps the README states: a job is let go only when that many newer ones are kept. */
	private checkCaps(state: PollState, abandoned: TrackedJob[], unwatched: TrackedJob[]): void {
		const outside = state.jobs.slice(this.jobs.listing().length);
		for (const job of abandoned) {
			const newer = outside.filter((kept) => !isEnded(kept.status) && kept.id > job.id).length;
			expect({ abandoned: job.id, newerFollowed: Math.min(newer, MAX_FOLLOWED_JOBS) }).toEqual({
				abandoned: job.id,
				newerFollowed: MAX_FOLLOWED_JOBS,
			});
		}
		for (const job of unwatched) {
			const newer = outside.filter((kept) => kept.status === 'failed' && kept.id > job.id).length;
			expect({ unwatched: job.id, newerWatched: Math.min(newer, MAX_WATCHED_FAILED_JOBS) }).toEqual(
				{ unwatched: job.id, newerWatched: MAX_WATCHED_FAILED_JOBS },
			);
		}
	}

	restart(): void {
		const before = (this.memory?.jobs ?? []).map((job) => job.id);
		this.memory = this.saved === undefined ? undefined : readPollState(JSON.parse(this.saved));
		this.activating = true;
		this.oracle.restarted(this.memory);
		const saved = new Set((this.memory?.jobs ?? []).map((job) => job.id));
		for (const id of before) if (!saved.has(id)) this.forgetting.add(id);
	}
}
