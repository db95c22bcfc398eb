import type { IDataObject } from 'n8n-workflow';

import { JobResponseSchema, embroideryApiRequest, routes } from '../transport';
import type { EmbroideryContext, Job, JobListItem, JobRef, Workflow } from '../transport';

// A job as the node sees it: fetched in detail (GET one job) or as a jobs-listing entry, and as item JSON.

/** `GET /jobs/{workflow}/{id}`: the detailed job, with fresh signed file URLs. */
export async function fetchJob(
	context: EmbroideryContext,
	ref: JobRef,
	itemIndex?: number,
): Promise<Job> {
	const { job } = await embroideryApiRequest.call(context, {
		...routes.getJob(ref),
		schema: JobResponseSchema,
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
export type JobSnapshot =
	| { detail: Job; listed?: undefined }
	| { listed: JobListItem; detail?: undefined };

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

export function snapshotToJson(
	seen: JobSnapshot,
	workflow: Workflow,
	extra: IDataObject = {},
): IDataObject {
	return seen.detail
		? jobToJson(seen.detail, workflow, extra)
		: { ...listItemToJson(seen.listed), ...extra };
}
