import type { IDataObject } from 'n8n-workflow';

import type { Job, JobListItem, Workflow } from '../transport';

// A job as the node knows it, and as item JSON; pure: the request for a job is in fetchJob.ts.

/**
 * A job as the node knows it: its detail (GET one job), its jobs-listing entry (which already carries signed
 * URLs), or both; where both are known, the listing entry's file links come first, as the spec defines them.
 */
export type KnownJob =
	| { detail: Job; listed?: JobListItem }
	| { listed: JobListItem; detail?: undefined };

/** Output JSON of a detailed job: id and workflow first, then everything the service said. */
export function jobToJson(job: Job, workflow: Workflow, extra: IDataObject = {}): IDataObject {
	return { ...job, id: job.id, workflow, ...extra } as IDataObject;
}

/** Output JSON of a jobs-listing entry; the listing names the workflow `kind`. */
export function listItemToJson(item: JobListItem): IDataObject {
	return { ...item, id: item.id, workflow: item.kind } as IDataObject;
}

export function jobStatusOf(job: KnownJob): Job['status'] {
	return job.detail ? job.detail.status : job.listed.status;
}

/** The source file name the service shows for the job, when it shows one. */
export function shownSourceNameOf(job: KnownJob): string | undefined {
	return job.detail ? job.detail.source?.name : job.listed.source?.name;
}

export function areDownloadsUnlocked(job: KnownJob): boolean {
	return job.detail ? job.detail.downloadsUnlocked : job.listed.downloadsUnlocked;
}

/** Item JSON of the job: its detail when known, else its listing entry. */
export function knownJobToJson(
	job: KnownJob,
	workflow: Workflow,
	extra: IDataObject = {},
): IDataObject {
	return job.detail
		? jobToJson(job.detail, workflow, extra)
		: { ...listItemToJson(job.listed), ...extra };
}

/** A job Job > Create made, with the item it came from and how it was sent. */
export interface CreatedJob {
	itemIndex: number;
	id: string;
	workflow: Workflow;
	json: IDataObject;
	/** The file name sent for the job, and the jobs made by the same request: their pairing is by array order. */
	sentName?: string;
	batch?: number | string;
	/** How many files that request carried: names are checked only where there were several. */
	requestFiles?: number;
}
