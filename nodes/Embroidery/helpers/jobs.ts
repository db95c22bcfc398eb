import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { JobResponseSchema, UnlockResponseSchema, embroideryApiRequest } from '../transport';
import type { EmbroideryContext, Job, JobListItem, Workflow } from '../transport';
import { jobIdProblem, workflowProblem } from './validation';

/** A job's id and workflow always travel together: the workflow selects the job's routes. */
export interface JobRef {
	id: string;
	workflow: Workflow;
}

export function jobPath(ref: JobRef, action?: 'retry' | 'unlock'): string {
	const base = `/jobs/${ref.workflow}/${encodeURIComponent(ref.id)}`;
	return action ? `${base}/${action}` : base;
}

/** Job ID and Workflow parameters of an item, checked before any request. */
export function jobRefsOfItem(context: IExecuteFunctions, itemIndex: number): JobRef[] {
	const rawIds = context.getNodeParameter('jobId', itemIndex) as unknown;
	const workflow = context.getNodeParameter('workflow', itemIndex) as unknown;
	const workflowIssue = workflowProblem(workflow, itemIndex);
	if (workflowIssue) throw new NodeOperationError(context.getNode(), workflowIssue, { itemIndex });
	const ids = (Array.isArray(rawIds) ? rawIds : String(rawIds ?? '').split(','))
		.map((id) => String(id).trim())
		.filter((id) => id !== '');
	if (ids.length === 0) ids.push('');
	return ids.map((id) => {
		const idIssue = jobIdProblem(id, itemIndex);
		if (idIssue) throw new NodeOperationError(context.getNode(), idIssue, { itemIndex });
		return { id, workflow: workflow as Workflow };
	});
}

export function singleJobRef(context: IExecuteFunctions, itemIndex: number): JobRef {
	const refs = jobRefsOfItem(context, itemIndex);
	if (refs.length > 1) {
		throw new NodeOperationError(context.getNode(), `Job ID of item ${itemIndex} holds ${refs.length} ids; this operation takes one`, {
			itemIndex,
		});
	}
	return refs[0];
}

export async function fetchJob(context: EmbroideryContext, ref: JobRef, itemIndex?: number): Promise<Job> {
	const { job } = await embroideryApiRequest.call(context, {
		method: 'GET',
		path: jobPath(ref),
		schema: JobResponseSchema,
		itemIndex,
	});
	return job;
}

/** Unlocks a completed job's machine files; this spends a subscription entitlement or credits. */
export async function unlockJob(context: EmbroideryContext, ref: JobRef, itemIndex?: number): Promise<Job> {
	const { job } = await embroideryApiRequest.call(context, {
		method: 'POST',
		path: jobPath(ref, 'unlock'),
		schema: UnlockResponseSchema,
		itemIndex,
	});
	return job;
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
export type SeenJob = { detail: Job; listed?: undefined } | { listed: JobListItem; detail?: undefined };

export function seenJobStatus(seen: SeenJob): Job['status'] {
	return seen.detail ? seen.detail.status : seen.listed.status;
}

export function seenJobUnlocked(seen: SeenJob): boolean {
	return seen.detail ? seen.detail.downloadsUnlocked : seen.listed.downloadsUnlocked;
}

export function seenJobToJson(seen: SeenJob, workflow: Workflow, extra: IDataObject = {}): IDataObject {
	return seen.detail ? jobToJson(seen.detail, workflow, extra) : { ...listItemToJson(seen.listed), ...extra };
}
