import {
	JobsListResponseSchema,
	cancelSignalOf,
	clock,
	embroideryApiRequest,
	isEnded,
	jobKey,
	mayAnswerLater,
	nodeErrorOf,
	retryAfterMsOf,
	routes,
	withCancelSignal,
} from '../transport';
import type { EmbroideryContext, Job, JobListItem, JobRef, JobStatus } from '../transport';
import { fetchJob } from './fetchJob';
import type { KnownJob } from './knownJob';

/** How often a wait asks the service about its jobs: soon at first, then less often, with jitter. */
export interface PollSchedule {
	/** A small job is often done within seconds: the first re-check comes soon. */
	firstDelayMs: number;
	/** A long job is not asked about more than twice a minute (each round is one request of the 60 a minute). */
	maxDelayMs: number;
	/** Growth of the delay from one round to the next. */
	factor: number;
	/** Fraction of the delay added at random, so many waiting nodes do not poll in step. */
	jitter: number;
}

export const defaultPollSchedule: PollSchedule = {
	firstDelayMs: 2000,
	maxDelayMs: 30_000,
	factor: 1.5,
	jitter: 0.2,
};

/** The wait before poll round `round` (1 = the first re-check): about 2 s growing to 30 s, with jitter. */
export function pollDelayMs(
	round: number,
	schedule: PollSchedule,
	random: () => number = Math.random,
): number {
	const base = Math.min(
		schedule.maxDelayMs,
		schedule.firstDelayMs * schedule.factor ** Math.max(0, round - 1),
	);
	return Math.round(base * (1 + schedule.jitter * random()));
}

export type WaitOutcome =
	| { ref: JobRef; finished: true; job: KnownJob }
	| { ref: JobRef; finished: false; lastStatus: JobStatus | 'unknown'; error?: unknown };

export interface WaitOptions {
	timeoutMs: number;
	schedule?: PollSchedule;
	/** Item the request errors are attributed to, per job. */
	itemIndexOf?: (ref: JobRef) => number | undefined;
	/** Whether a completed job's listing entry is not enough, so its detail is fetched (one request). */
	wantsDetail?: (item: JobListItem) => boolean;
}

const deadlineStepMs = 5000;

/**
 * Polls until every job is completed or failed, or the timeout passes. Each round makes one
 * GET /jobs listing, which refreshes all pending jobs among the 50 most recent; only jobs outside
 * that window get their own GET. A completed job is taken from its listing entry (status, metrics,
 * signed URLs); a failed one's detail is fetched once, as only the detail carries its failureCode.
 * The timeout also ends a round midway (many jobs outside the window each cost a paced GET): a request
 * still waiting or open then is given up, and a job that ended is taken from its listing entry.
 */
export async function waitForJobs(
	context: EmbroideryContext,
	refs: JobRef[],
	options: WaitOptions,
): Promise<WaitOutcome[]> {
	const schedule = options.schedule ?? defaultPollSchedule;
	const signal = cancelSignalOf(context);
	const deadline = clock.now() + options.timeoutMs;
	const timeUp = new AbortController();
	const waitDone = new AbortController();
	const timer = signal ? AbortSignal.any([signal, waitDone.signal]) : waitDone.signal;
	const watchDeadline = async () => {
		// In short steps: n8n 1.x's sleep keeps its timer after a cancel, so no timer outlives the wait by long.
		for (let left = deadline - clock.now(); left > 0; left = deadline - clock.now()) {
			await clock.sleep(Math.min(left, deadlineStepMs), timer);
		}
		timeUp.abort(new Error(`The wait's ${options.timeoutMs / 1000} s are up`));
	};
	watchDeadline().catch(() => undefined);
	const requestContext = withCancelSignal(
		context,
		signal ? AbortSignal.any([signal, timeUp.signal]) : timeUp.signal,
	);
	try {
		return await pollUntilEnded(requestContext, refs, options, {
			schedule,
			signal,
			deadline,
			timeUp: timeUp.signal,
		});
	} finally {
		waitDone.abort();
	}
}

async function pollUntilEnded(
	context: EmbroideryContext,
	refs: JobRef[],
	options: WaitOptions,
	limits: { schedule: PollSchedule; signal?: AbortSignal; deadline: number; timeUp: AbortSignal },
): Promise<WaitOutcome[]> {
	const { schedule, signal, deadline, timeUp } = limits;
	const finished = new Map<string, KnownJob>();
	const lastStatus = new Map<string, JobStatus>();
	// A job whose own look-up fails (deleted, wrong workflow) stops being polled; the others go on.
	const failed = new Map<string, unknown>();
	const lookUp = async (ref: JobRef): Promise<Job | undefined> => {
		if (timeUp.aborted) return undefined;
		try {
			return await fetchJob(context, ref, options.itemIndexOf?.(ref));
		} catch (error) {
			if (signal?.aborted) throw nodeErrorOf(context.getNode(), error);
			// The time ran out while this look-up waited or ran: the job is still pending, not failed.
			if (!timeUp.aborted) failed.set(jobKey(ref), error);
			return undefined;
		}
	};
	const unique = [...new Map(refs.map((ref) => [jobKey(ref), ref])).values()];
	// The last listing's failure while later ones may still answer; it is each unfinished job's error at the end.
	let listingFailure: { error: unknown; retryAfterMs: number } | undefined;

	for (let round = 0; ; round++) {
		if (round > 0) {
			const remaining = deadline - clock.now();
			if (remaining <= 0 || timeUp.aborted) break;
			// After a 429 the service said when to ask again; the wait keeps to it.
			const delay = Math.max(pollDelayMs(round, schedule), listingFailure?.retryAfterMs ?? 0);
			await clock.sleep(Math.min(delay, remaining), signal);
		}
		const pending = unique.filter((ref) => !finished.has(jobKey(ref)) && !failed.has(jobKey(ref)));
		if (pending.length === 0) break;

		let listing;
		try {
			listing = await embroideryApiRequest.call(context, {
				...routes.listJobs(),
				schema: JobsListResponseSchema,
				itemIndex: options.itemIndexOf?.(pending[0]),
			});
		} catch (error) {
			if (signal?.aborted) throw nodeErrorOf(context.getNode(), error);
			if (timeUp.aborted) break;
			// The transport already retried. A refused key or request ends the wait for every pending job at once;
			// a service that is down or busy is asked again at the next round, while the timeout leaves time.
			if (!mayAnswerLater(error)) {
				for (const ref of pending) failed.set(jobKey(ref), error);
				break;
			}
			listingFailure = { error, retryAfterMs: retryAfterMsOf(error) ?? 0 };
			context.logger.warn(
				'Embroidery Wait for Completion: the jobs listing failed, asking again within the ' +
					`timeout: ${String((error as Error).message)}`,
			);
			continue;
		}
		listingFailure = undefined;
		const listed = new Map(
			listing.data.map((item) => [jobKey({ id: item.id, workflow: item.kind }), item]),
		);
		for (const ref of pending) {
			const item = listed.get(jobKey(ref));
			if (item === undefined) {
				// Outside the 50-job window: the listing cannot tell, so ask for this job alone (while time is left).
				const job = await lookUp(ref);
				if (!job) continue;
				lastStatus.set(jobKey(ref), job.status);
				if (isEnded(job.status)) finished.set(jobKey(ref), { detail: job });
				continue;
			}
			lastStatus.set(jobKey(ref), item.status);
			if (item.status === 'completed' && !options.wantsDetail?.(item)) {
				finished.set(jobKey(ref), { listed: item });
			} else if (isEnded(item.status)) {
				const job = await lookUp(ref);
				// Once the time is up, a job that ended comes as listed rather than not at all.
				if (job) finished.set(jobKey(ref), { detail: job });
				else if (timeUp.aborted) finished.set(jobKey(ref), { listed: item });
			}
		}
		if (finished.size + failed.size === unique.length) break;
	}

	return refs.map((ref) => {
		const job = finished.get(jobKey(ref));
		if (job) return { ref, finished: true, job };
		return {
			ref,
			finished: false,
			lastStatus: lastStatus.get(jobKey(ref)) ?? 'unknown',
			error: failed.get(jobKey(ref)) ?? listingFailure?.error,
		};
	});
}
