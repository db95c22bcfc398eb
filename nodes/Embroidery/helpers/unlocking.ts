import { NodeOperationError } from 'n8n-workflow';
import type { NodeApiError } from 'n8n-workflow';

import {
	UnlockResponseSchema,
	earlierTryAdvice,
	embroideryApiRequest,
	jobKey,
	nodeErrorOf,
	routes,
} from '../transport';
import type { EmbroideryContext, Job, JobRef } from '../transport';
import { apiErrorFromResponse } from '../transport/errors';
import { earlierUnlockOf, recordUnlock, refusedBeforeActing } from './earlierTries';
import { fetchJob } from './jobSnapshot';
import { ofRun } from './ofRun';

// Unlocking a completed job's machine files: it spends credits, so it is inspected first and sent once.

export interface UnlockAnswer {
	/** The detailed job after the unlock, with fresh signed file URLs. */
	job: Job;
	message: string;
}

// The unlocks of one run (one execute() context), by job: an unlock spends credits, so it is sent once per job.
const unlocksOfRun = new WeakMap<object, Map<string, Promise<UnlockAnswer>>>();

/** An earlier try of this execution sent the unlock and lost its answer, and the job does not show it unlocked. */
function unlockNotSentAgain(
	context: EmbroideryContext,
	ref: JobRef,
	itemIndex: number | undefined,
): NodeOperationError {
	const error = new NodeOperationError(
		context.getNode(),
		`An earlier try of this node sent the unlock of job ${ref.id} and got no answer; it was not sent again`,
		{
			itemIndex,
			description: earlierTryAdvice.unlock(ref),
		},
	);
	error.context.job = { id: ref.id, workflow: ref.workflow };
	return error;
}

/** One unlock request; the execution's record says, before it goes out, that it may have spent credits. */
async function sendUnlock(
	context: EmbroideryContext,
	ref: JobRef,
	itemIndex?: number,
): Promise<UnlockAnswer> {
	recordUnlock(context, ref, 'unknown');
	try {
		const { job, message } = await embroideryApiRequest.call(context, {
			...routes.unlockJob(ref),
			schema: UnlockResponseSchema,
			itemIndex,
		});
		recordUnlock(context, ref, 'unlocked');
		return { job, message };
	} catch (error) {
		// 409 not completed, 422 no credits: nothing was unlocked, so a later try may send it.
		if (refusedBeforeActing(error)) recordUnlock(context, ref, 'refused');
		throw nodeErrorOf(context.getNode(), error, itemIndex);
	}
}

/** An unlock sent by an earlier try of this execution is never sent again; the job as it is now answers instead. */
async function unlockedEarlier(
	context: EmbroideryContext,
	ref: JobRef,
	itemIndex?: number,
): Promise<UnlockAnswer | undefined> {
	const earlier = earlierUnlockOf(context, ref);
	if (earlier === undefined) return undefined;
	const job = await fetchJob(context, ref, itemIndex);
	if (earlier === 'unknown' && !job.downloadsUnlocked)
		throw unlockNotSentAgain(context, ref, itemIndex);
	return { job, message: 'Unlocked by an earlier try of this node; the unlock was not sent again' };
}

/** The 409 the service would give, said without sending the unlock: the node has just seen the job's state. */
function notCompleted(
	context: EmbroideryContext,
	ref: JobRef,
	job: Job,
	itemIndex?: number,
): NodeApiError {
	const error = apiErrorFromResponse(
		context.getNode(),
		409,
		{
			message: `job ${ref.id} is ${job.status}, and only a completed job can be unlocked (no unlock was sent)`,
		},
		{ ...routes.unlockJob(ref), itemIndex, attempts: 0 },
		[],
	);
	error.context.jobStatus = job.status;
	error.context.job = { id: ref.id, workflow: ref.workflow };
	return error;
}

/**
 * The job's unlock state inspected before unlocking (spec: unlock, "to be inspected before unlocking"; unlocks
 * have a tight billing-action limit): a job already unlocked is the answer, a job not completed gets the 409.
 */
async function inspectedBeforeUnlock(
	context: EmbroideryContext,
	ref: JobRef,
	inspect: Job | 'fetch',
	itemIndex?: number,
): Promise<UnlockAnswer | undefined> {
	const job = inspect === 'fetch' ? await fetchJob(context, ref, itemIndex) : inspect;
	if (job.downloadsUnlocked)
		return {
			job,
			message: 'The job was already unlocked; no unlock was sent and nothing was spent',
		};
	if (job.status !== 'completed') throw notCompleted(context, ref, job, itemIndex);
	return undefined;
}

export interface UnlockOptions {
	/** Inspect the job first: as the node just saw it (detailed), or fetched now. Without it, the caller has. */
	inspect?: Job | 'fetch';
}

/**
 * Unlocks a completed job's machine files; this spends a subscription entitlement or credits. Sent once per
 * job and execution, however often n8n's Retry On Fail runs the node: every item that names the job gets the
 * one answer, or the one error, and a later try gets the job as it is now.
 */
export async function unlockJob(
	context: EmbroideryContext,
	ref: JobRef,
	itemIndex?: number,
	options: UnlockOptions = {},
): Promise<UnlockAnswer> {
	const unlocks = ofRun(unlocksOfRun, context, () => new Map<string, Promise<UnlockAnswer>>());
	let unlock = unlocks.get(jobKey(ref));
	if (!unlock) {
		unlock = (async () =>
			(await unlockedEarlier(context, ref, itemIndex)) ??
			(options.inspect === undefined
				? undefined
				: await inspectedBeforeUnlock(context, ref, options.inspect, itemIndex)) ??
			(await sendUnlock(context, ref, itemIndex)))();
		unlocks.set(jobKey(ref), unlock);
	}
	return await unlock;
}
