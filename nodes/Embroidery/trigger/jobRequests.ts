import { NodeApiError } from 'n8n-workflow';
import type { IPollFunctions } from 'n8n-workflow';

import { fetchJob } from '../helpers/fetchJob';
import { JobsListResponseSchema, embroideryApiRequest, nodeErrorOf, routes } from '../transport';
import type { Job, JobListItem } from '../transport';
import type { TrackedJob } from './pollState';

/** A jobs-listing entry with the workflow under the name the poll state uses (the listing calls it `kind`). */
export interface ListedJob extends TrackedJob {
	item: JobListItem;
}

export interface FetchedJob extends TrackedJob {
	job: Job;
}

/** `GET /jobs`: the account's 50 most recent jobs, newest first. */
export async function listRecentJobs(context: IPollFunctions): Promise<ListedJob[]> {
	const { data } = await embroideryApiRequest.call(context, {
		...routes.listJobs(),
		schema: JobsListResponseSchema,
	});
	return data.map((item: JobListItem) => {
		// The spec's listing has no completedAt; a service that adds it tells when a job ended.
		const endedAt = Date.parse(String((item as { completedAt?: unknown }).completedAt ?? ''));
		return {
			id: item.id,
			workflow: item.kind,
			status: item.status,
			...(Number.isFinite(endedAt) ? { endedAt } : {}),
			item,
		};
	});
}

/** `GET /jobs/{workflow}/{id}`; undefined when the job is gone (404) or no longer the key owner's (403). */
export async function fetchJobIfPresent(
	context: IPollFunctions,
	ref: Pick<TrackedJob, 'id' | 'workflow'>,
): Promise<FetchedJob | undefined> {
	try {
		const job = await fetchJob(context, ref);
		return {
			id: job.id,
			workflow: ref.workflow,
			status: job.status,
			attempts: job.attemptCount,
			job,
		};
	} catch (error) {
		if (error instanceof NodeApiError && (error.httpCode === '404' || error.httpCode === '403')) {
			return undefined;
		}
		throw nodeErrorOf(context.getNode(), error);
	}
}
