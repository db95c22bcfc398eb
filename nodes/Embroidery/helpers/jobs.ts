import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { JobResponseSchema, UnlockResponseSchema, embroideryApiRequest, isWorkflow, jobKey, nodeErrorOf, routes } from '../transport';
import type { EmbroideryContext, Job, JobListItem, JobRef, Workflow } from '../transport';
import { apiErrorFromResponse } from '../transport/errors';
import { earlierUnlockOf, recordUnlock } from './earlierTries';
import { ofRun } from './ofRun';
import { jobIdProblem, workflowProblem } from './validation';

export type { JobRef };

/** Job ID and Workflow parameters of an item, checked before any request. */
export function jobRefsOfItem(context: IExecuteFunctions, itemIndex: number): JobRef[] {
	const rawIds = context.getNodeParameter('jobId', itemIndex) as unknown;
	const workflow = context.getNodeParameter('workflow', itemIndex) as unknown;
	const workflowIssue = workflowProblem(workflow);
	if (workflowIssue) throw new NodeOperationError(context.getNode(), workflowIssue, { itemIndex });
	const ids = (Array.isArray(rawIds) ? rawIds : String(rawIds ?? '').split(','))
		.map((id) => String(id).trim())
		.filter((id) => id !== '');
	if (ids.length === 0) ids.push('');
	return ids.map((id) => {
		const idIssue = jobIdProblem(id);
		if (idIssue) throw new NodeOperationError(context.getNode(), idIssue, { itemIndex });
		return { id, workflow: workflow as Workflow };
	});
}

export function singleJobRef(context: IExecuteFunctions, itemIndex: number): JobRef {
	const refs = jobRefsOfItem(context, itemIndex);
	if (refs.length > 1) {
		throw new NodeOperationError(context.getNode(), `'Job ID' holds ${refs.length} ids; this operation takes one`, {
			itemIndex,
		});
	}
	return refs[0];
}

export async function fetchJob(context: EmbroideryContext, ref: JobRef, itemIndex?: number): Promise<Job> {
	const { job } = await embroideryApiRequest.call(context, {
		...routes.getJob(ref),
		schema: JobResponseSchema,
		itemIndex,
	});
	return job;
}

export interface UnlockAnswer {
	/** The detailed job after the unlock, with fresh signed file URLs. */
	job: Job;
	message: string;
}

// The unlocks of one run (one execute() context), by job: an unlock spends credits, so it is sent once per job.
const unlocksOfRun = new WeakMap<object, Map<string, Promise<UnlockAnswer>>>();

/** An earlier try of this execution sent the unlock and lost its answer, and the job does not show it unlocked. */
function unlockNotSentAgain(context: EmbroideryContext, ref: JobRef, itemIndex: number | undefined): NodeOperationError {
	const error = new NodeOperationError(
		context.getNode(),
		`An earlier try of this node sent the unlock of job ${ref.id} and got no answer; it was not sent again`,
		{
			itemIndex,
			description: `n8n's Retry On Fail ran the node again. The job does not show as unlocked yet, but the earlier request may still have spent an entitlement or credits. Check the job with Job > Get (id ${ref.id}, workflow "${ref.workflow}", field downloadsUnlocked) and unlock it with Job > Unlock only if it is still locked.`,
		},
	);
	error.context.job = { id: ref.id, workflow: ref.workflow };
	return error;
}

/** One unlock request; the execution's record says, before it goes out, that it may have spent credits. */
async function sendUnlock(context: EmbroideryContext, ref: JobRef, itemIndex?: number): Promise<UnlockAnswer> {
	recordUnlock(context, ref, 'unknown');
	try {
		const { job, message } = await embroideryApiRequest.call(context, { ...routes.unlockJob(ref), schema: UnlockResponseSchema, itemIndex });
		recordUnlock(context, ref, 'unlocked');
		return { job, message };
	} catch (error) {
		// A 4xx is the service refusing before it unlocked anything (409 not completed, 422 no credits).
		if (error instanceof NodeApiError && /^4\d\d$/.test(String(error.httpCode ?? ''))) recordUnlock(context, ref, 'refused');
		throw nodeErrorOf(context.getNode(), error, itemIndex);
	}
}

/** An unlock sent by an earlier try of this execution is never sent again; the job as it is now answers instead. */
async function unlockedEarlier(context: EmbroideryContext, ref: JobRef, itemIndex?: number): Promise<UnlockAnswer | undefined> {
	const earlier = earlierUnlockOf(context, ref);
	if (earlier === undefined) return undefined;
	const job = await fetchJob(context, ref, itemIndex);
	if (earlier === 'unknown' && !job.downloadsUnlocked) throw unlockNotSentAgain(context, ref, itemIndex);
	return { job, message: 'Unlocked by an earlier try of this node; the unlock was not sent again' };
}

/** The 409 the service would give, said without sending the unlock: the node has just seen the job's state. */
function notCompleted(context: EmbroideryContext, ref: JobRef, job: Job, itemIndex?: number): NodeApiError {
	const error = apiErrorFromResponse(
		context.getNode(),
		409,
		{ message: `job ${ref.id} is ${job.status}, and only a completed job can be unlocked (no unlock was sent)` },
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
	if (job.downloadsUnlocked) return { job, message: 'The job was already unlocked; no unlock was sent and nothing was spent' };
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
			(options.inspect === undefined ? undefined : await inspectedBeforeUnlock(context, ref, options.inspect, itemIndex)) ??
			(await sendUnlock(context, ref, itemIndex)))();
		unlocks.set(jobKey(ref), unlock);
	}
	return await unlock;
}

/** Output JSON of a detailed job: id and workflow first, then everything the service said. */
export function jobToJson(job: Job, workflow: Workflow, extra: IDataObject = {}): IDataObject {
	return { ...job, id: job.id, workflow, ...extra } as IDataObject;
}

/** Output JSON of a jobs-listing entry; the listing names the workflow `kind`. */
export function listItemToJson(item: JobListItem): IDataObject {
	return { ...item, id: item.id, workflow: item.kind } as IDataObject;
}

/** A job as the node last saw it: detailed, or its jobs-listing entry (which already carries signed URLs). */
export type JobSnapshot = { detail: Job; listed?: undefined } | { listed: JobListItem; detail?: undefined };

export function snapshotStatus(seen: JobSnapshot): Job['status'] {
	return seen.detail ? seen.detail.status : seen.listed.status;
}

/** The source file name the service shows for the job, when it shows one. */
export function snapshotSourceName(seen: JobSnapshot): string | undefined {
	return seen.detail ? seen.detail.source?.name : seen.listed.source?.name;
}

export function snapshotUnlocked(seen: JobSnapshot): boolean {
	return seen.detail ? seen.detail.downloadsUnlocked : seen.listed.downloadsUnlocked;
}

export function snapshotToJson(seen: JobSnapshot, workflow: Workflow, extra: IDataObject = {}): IDataObject {
	return seen.detail ? jobToJson(seen.detail, workflow, extra) : { ...listItemToJson(seen.listed), ...extra };
}

/**
 * An error about a job the service has: the message names the job, the next step says how to carry on
 * without creating it again, and the error carries the job's id and workflow for the error item.
 */
export function jobError(
	node: INode,
	error: unknown,
	ref: JobRef,
	itemIndex: number | undefined,
	created: boolean,
): NodeApiError | NodeOperationError {
	const base = nodeErrorOf(node, error, itemIndex);
	const message = base.message.includes(ref.id) ? base.message : `Job ${ref.id}: ${base.message}`;
	const nextStep = created
		? `The job was created (id ${ref.id}, workflow "${ref.workflow}"); do not create it again. Carry on with Job > Wait for Completion or Job > Get using this id and workflow.`
		: `Check the job with Job > Get (id ${ref.id}, workflow "${ref.workflow}").`;
	const description = [base.description, nextStep].filter(Boolean).join(' ');
	const httpCode = base instanceof NodeApiError ? (base.httpCode ?? undefined) : undefined;
	const copy = httpCode
		? new NodeApiError(node, { message, httpCode }, { message, description, httpCode, itemIndex })
		: new NodeOperationError(node, message, { description, itemIndex });
	copy.context.job = { id: ref.id, workflow: ref.workflow };
	return copy;
}

function asJobRef(value: unknown): JobRef | undefined {
	const job = value as Partial<JobRef> | undefined;
	return job && typeof job.id === 'string' && isWorkflow(job.workflow) ? { id: job.id, workflow: job.workflow } : undefined;
}

/** The jobs an error is about: the one of jobError, or the several of jobsError. */
export function jobsOfError(error: NodeApiError | NodeOperationError): JobRef[] {
	const one = asJobRef(error.context.job);
	if (one) return [one];
	const several = Array.isArray(error.context.jobs) ? (error.context.jobs as unknown[]) : [];
	return several.map(asJobRef).filter((job): job is JobRef => job !== undefined);
}

/** An error that carries the jobs it is about (the service created them), so their ids reach the error item. */
export function jobsError<E extends NodeApiError | NodeOperationError>(error: E, jobs: JobRef[]): E {
	error.context.jobs = jobs.map(({ id, workflow }) => ({ id, workflow }));
	return error;
}
