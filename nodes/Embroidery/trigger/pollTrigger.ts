/**
 * The Embroidery Trigger's poll as n8n calls it: reads the node's parameters, claims the saved state
 * (savedState.ts), runs one poll within its time budget (pollJobs.ts, over the requests of jobRequests.ts), makes
 * the items of the jobs that ended (jobItems.ts), saves the next state, and decides which failures go to n8n's
 * error handling. In manual mode (the editor's test) it returns one sample and moves no state.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import {
	clock,
	credentialIdOf,
	isWorkflow,
	jobEndings,
	jobsListingSize,
	nodeErrorOf,
	triggerAdvice,
	withCancelSignal,
	workflows,
} from '../transport';
import type { JobEnding, Workflow } from '../transport';
import type { TriggerOptions } from './jobItems';
import { jobEndingItem } from './jobItems';
import { fetchJobIfPresent, listRecentJobs } from './jobRequests';
import type { FetchedJob, ListedJob } from './jobRequests';
import { pollJobs } from './pollJobs';
import { FAILED_POLLS_BEFORE_REPORT, MAX_WATCHED_FAILED_JOBS, pollLimits } from './pollLimits';
import type { RememberedJob, TriggerFilter } from './pollState';
import { holdBackEndings, matchesFilter } from './pollState';
import { longestPollGapMs } from './pollSchedule';
import { claimSavedState } from './savedState';
import type { SavedStateHandle } from './savedState';

/** The service refused the key itself (revoked, expired, or without the abilities the trigger needs). */
function keyRefused(error: unknown): boolean {
	return error instanceof NodeApiError && ['401', '403'].includes(String(error.httpCode ?? ''));
}

/**
 * Whether a failed poll goes to n8n's error handling: the first poll of an activation, a refused key, or polls
 * failing in a row for `reportFailingAfterMs`; each failing streak once, and again after `reportAgainAfterMs`.
 */
function failureToReport(
	context: IPollFunctions,
	handle: SavedStateHandle,
	error: unknown,
	now: number,
): NodeApiError | NodeOperationError | undefined {
	const nodeError = nodeErrorOf(context.getNode(), error);
	// The first poll of an activation throws, so a broken credential shows up when the workflow is activated.
	if (!handle.hasSaved) return nodeError;
	const streak = handle.failed(now);
	const failingMs = now - streak.since;
	const due = keyRefused(error) || failingMs >= pollLimits.reportFailingAfterMs;
	const reportedLately =
		streak.reportedAt !== undefined && now - streak.reportedAt < pollLimits.reportAgainAfterMs;
	if (!due || reportedLately) return undefined;
	handle.reported(now);
	const minutes = Math.round(failingMs / 60_000);
	const lasting = minutes >= 1 ? `The trigger's polls have failed for ${minutes} minutes. ` : '';
	nodeError.description = `${lasting}${nodeError.description ?? ''} ${triggerAdvice.keepsPolling}`;
	return nodeError;
}

/**
 * How long this poll may run: n8n's budget where it gives one (`getPollBudgetMs`, n8n 2.x: 36 s under its scheduler,
 * else 5 minutes), the default on n8n 1.x, and never more than `maxBudgetMs`.
 */
export function pollBudgetMs(context: IPollFunctions): number {
	// n8n 1.x has no getPollBudgetMs, although its types may say otherwise.
	const fromN8n =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	const budget = typeof fromN8n === 'number' && fromN8n > 0 ? fromN8n : pollLimits.defaultBudgetMs;
	return Math.min(budget, pollLimits.maxBudgetMs);
}

export function readFilter(context: IPollFunctions): TriggerFilter {
	const events = context.getNodeParameter('events', []) as JobEnding[];
	if (events.length === 0) {
		throw new NodeOperationError(context.getNode(), triggerAdvice.noEvents.message, {
			description: triggerAdvice.noEvents.description,
		});
	}
	const unknownEvent = events.find((event) => !(jobEndings as readonly string[]).includes(event));
	if (unknownEvent !== undefined) {
		throw new NodeOperationError(
			context.getNode(),
			`Trigger On holds "${String(unknownEvent)}", which is not an event`,
			{
				description: triggerAdvice.eventValues(jobEndings),
			},
		);
	}
	const workflow = context.getNodeParameter('workflow', 'both') as Workflow | 'both';
	if (workflow !== 'both' && !isWorkflow(workflow)) {
		throw new NodeOperationError(
			context.getNode(),
			`Workflow is "${String(workflow)}", which is not a workflow`,
			{
				description: triggerAdvice.workflowValues(workflows),
			},
		);
	}
	const followed: Workflow[] = workflow === 'both' ? [...workflows] : [workflow];
	return { events, workflows: followed };
}

export function readOptions(context: IPollFunctions): TriggerOptions {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	// Version 1 triggers keep their output: warnings only with Include Full Job.
	const showWarnings =
		context.getNode().typeVersion >= 1.1 &&
		context.getNodeParameter('showWarnings', true) !== false;
	return {
		includeFullJob: options.includeFullJob === true,
		downloadFiles: options.downloadFiles === true,
		showWarnings,
	};
}

/** The editor's test run: the newest matching job as a sample, without moving any state. */
async function sampleRecentJob(
	context: IPollFunctions,
	filter: TriggerFilter,
	options: TriggerOptions,
) {
	const listing = await listRecentJobs(context);
	const newest = listing.find((job) => matchesFilter(job, filter));
	if (!newest) {
		const events = filter.events.join(' or ');
		const workflows = filter.workflows.join(' or ');
		throw new NodeOperationError(
			context.getNode(),
			`None of the ${jobsListingSize} most recent jobs is a ${workflows} job that ${events}`,
			{
				description: triggerAdvice.noSampleJob,
			},
		);
	}
	return [[await jobEndingItem(context, { job: newest, listed: newest }, options)]];
}

/** One active poll: one listing, follow-ups for jobs that left it, then the items of the jobs that ended. */
async function emitEndedJobs(
	context: IPollFunctions,
	handle: SavedStateHandle,
	deadline: number,
	budgetMs: number,
	filter: TriggerFilter,
	options: TriggerOptions,
): Promise<INodeExecutionData[][] | null> {
	const outOfTime = () => clock.now() >= deadline;
	const result = await pollJobs<ListedJob, FetchedJob>(
		handle.previous,
		{
			listJobs: async () => await listRecentJobs(context),
			getJob: async (job) => await fetchJobIfPresent(context, job),
		},
		filter,
		{
			now: clock.now(),
			outOfTime,
			activatedAt: handle.activatedAt,
			endedSince: handle.endedSince,
		},
	);
	const name = context.getNode().name;
	if (result.mayHaveMissedJobs) {
		context.logger.warn(
			`Embroidery Trigger "${name}": more than ${jobsListingSize} jobs were created since the last poll, so ` +
				`the oldest of them may never be seen; poll more often`,
		);
	}
	for (const job of result.abandoned) {
		context.logger.warn(
			`Embroidery Trigger "${name}" stopped following ${job.workflow} job ${job.id}: too many ` +
				`unfinished jobs left the listing`,
		);
	}
	for (const job of result.unwatched) {
		context.logger.debug(
			`Embroidery Trigger "${name}" no longer watches failed ${job.workflow} job ${job.id} ` +
				`for a retry: ${MAX_WATCHED_FAILED_JOBS} newer failed jobs are watched`,
		);
	}
	for (const job of result.unreachable) {
		context.logger.warn(
			`Embroidery Trigger "${name}": ${job.workflow} job ${job.id} could not be checked in ` +
				`the last ${job.failedChecks ?? 0} polls; it stays followed, and its ending is emitted ` +
				`once the service answers for it`,
		);
	}
	const items: INodeExecutionData[] = [];
	const failedItems: RememberedJob[] = [];
	const postponed: RememberedJob[] = [];
	for (const ended of result.endings) {
		if (outOfTime()) {
			postponed.push(ended.job);
			continue;
		}
		const firstTry = items.length === 0 && failedItems.length === 0;
		// Each try is already retried by the transport; after a few failed polls the failure goes on the item instead.
		const failedPolls = ended.job.failedPolls ?? 0;
		try {
			items.push(
				await jobEndingItem(context, ended, options, failedPolls >= FAILED_POLLS_BEFORE_REPORT),
			);
		} catch (error) {
			// Cut short by the end of the poll's time: it counts as failed only when it had the poll's time to itself,
			// so an item that never fits in a poll still goes out (with the failure on it) after a few polls.
			if (outOfTime() && !firstTry) {
				postponed.push(ended.job);
				continue;
			}
			failedItems.push(ended.job);
			context.logger.warn(
				`Embroidery Trigger "${name}": poll failed, trying again at the next poll ` +
					`for ${ended.job.workflow} job ${ended.job.id}: ${nodeErrorOf(context.getNode(), error).message}`,
			);
		}
	}
	if (postponed.length > 0) {
		context.logger.info(
			`Embroidery Trigger "${name}": the poll used its time (${Math.round(budgetMs / 1000)} ` +
				`s); ${postponed.length} job endings are left to the next poll`,
		);
	}
	if (!handle.owns()) {
		context.logger.warn(
			`Embroidery Trigger "${name}": a poll that ran longer ` +
				`than ${pollLimits.stuckPollMs / 1000} s was overtaken by a later one; its findings are ` +
				`dropped, the later poll's stand`,
		);
		return null;
	}
	// Jobs whose item failed or was not made stay unfinished in the state, so the next poll finds their ending again.
	const state = holdBackEndings(holdBackEndings(result.state, failedItems, true), postponed, false);
	handle.save(state);
	return items.length > 0 ? [items] : null;
}

export async function pollForEndedJobs(
	context: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const filter = readFilter(context);
	const options = readOptions(context);
	if (context.getMode() === 'manual') return await sampleRecentJob(context, filter, options);

	const credential = credentialIdOf(context);
	const startedAt = clock.now();
	const pollGapMs = longestPollGapMs(context.getNodeParameter('pollTimes', {}));
	const handle = claimSavedState(context, credential, startedAt, pollLimits.stuckPollMs, pollGapMs);
	if (handle === undefined) {
		// Two polls over one state would emit the same endings twice.
		context.logger.debug(
			`Embroidery Trigger "${context.getNode().name}": the previous poll is still running; skipping this one`,
		);
		return null;
	}
	const budgetMs = pollBudgetMs(context);
	const deadline = startedAt + budgetMs;
	const timeUp = new AbortController();
	const pollEnded = new AbortController();
	void clock.sleep(budgetMs, pollEnded.signal).then(
		() => timeUp.abort(new Error('The poll used its time budget')),
		() => undefined,
	);
	try {
		return await emitEndedJobs(
			withCancelSignal(context, timeUp.signal),
			handle,
			deadline,
			budgetMs,
			filter,
			options,
		);
	} catch (error) {
		if (!handle.owns()) return null;
		// Thrown, n8n records a failed execution and runs the error workflow; passing faults are only logged.
		const report = failureToReport(context, handle, error, clock.now());
		if (report) throw report;
		context.logger.warn(
			`Embroidery Trigger "${context.getNode().name}": poll failed, trying again at the next ` +
				`poll: ${(error as Error).message}`,
		);
		return null;
	} finally {
		pollEnded.abort();
		handle.release();
	}
}
