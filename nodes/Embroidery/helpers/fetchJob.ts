import { JobResponseSchema, embroideryApiRequest, routes } from '../transport';
import type { EmbroideryContext, Job, JobRef } from '../transport';

// The request for one job in detail, which the action node and the trigger share.

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
