/**
 * The trigger's limits, in one place: how long one poll may run and when it is presumed stuck, when failing polls
 * go to n8n's error handling, how many per-job requests a poll spends, how many jobs the saved state keeps, and
 * after how many failures a job is warned about or emitted with its failure.
 */

/** A poll's time and the reporting of failing polls (pollTrigger.ts); tests shorten them. */
export const pollLimits = {
	/**
	 * A poll still running after this long is presumed stuck, so the next one may go ahead (the stuck
	 * one then emits nothing).
	 */
	stuckPollMs: 15 * 60_000,
	/** The time a poll gives itself where n8n does not say (n8n 1.x); n8n 2.x gives each poll a budget of its own. */
	defaultBudgetMs: 5 * 60_000,
	/** The most a poll takes, whatever n8n allows: well inside the time after which it would be presumed stuck. */
	maxBudgetMs: 10 * 60_000,
	/** Polls failing in a row for this long are reported through n8n (a failed execution, the error workflow). */
	reportFailingAfterMs: 30 * 60_000,
	/** A failure that lasts is reported again this often, not at every poll. */
	reportAgainAfterMs: 24 * 60 * 60_000,
};

/** Jobs followed up outside the listing are capped so the saved state stays small. */
export const MAX_FOLLOWED_JOBS = 200;

/** Failed jobs outside the listing watched for a retry, the newest first; older ones are no longer watched. */
export const MAX_WATCHED_FAILED_JOBS = 8;

/** Per-job requests a single poll spends on jobs that left the listing. */
export const FOLLOW_UPS_PER_POLL = 10;

/** Of those, the share kept for failed jobs watched for a retry when unfinished jobs would take them all. */
export const RETRY_WATCH_FOLLOW_UPS = 2;

/**
 * Failed jobs watched for a retry are checked at most this often: a retry is a person's action and runs for
 * minutes.
 */
export const RETRY_CHECK_INTERVAL_MS = 10 * 60_000;

/**
 * Ids are ULIDs made on the service's clocks, which may disagree: a job created after the floor was set can carry
 * an id up to this much older, and is still new.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 5 * 60_000;

/**
 * How long after the user activates (publishes) a workflow in a running n8n its activation poll may come: n8n 2.41
 * publishes in the background (its publication outbox, read every 15 s), so a job can end between the user's
 * click and that poll. The activation poll emits what ended within this time before it.
 */
export const ACTIVATION_POLL_DELAY_MS = 60_000;

/**
 * A failed job may be retried while its source upload lasts; uploads are kept 24 hours, and a job's id carries the
 * time it was created (with its upload), so the window needs no room in the saved state.
 */
export const RETRY_WATCH_MS = 24 * 60 * 60_000;

/** Failed per-job requests in a row after which each poll warns that a followed job cannot be checked. */
export const FAILED_CHECKS_BEFORE_WARNING = 3;

/** Polls in which one job's item may fail (its detail or files) before it is emitted with the failure on the item. */
export const FAILED_POLLS_BEFORE_REPORT = 2;
