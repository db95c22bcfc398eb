import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { jobLabel } from '../helpers/jobLabel';
import { jobLink } from '../helpers/jobLocator';
import {
	JobsListResponseSchema,
	clock,
	credentialsOf,
	embroideryApiRequest,
	routes,
} from '../transport';

/** The Job picker's list: the account's most recent jobs (`jobsListingSize`), filtered by what the user types. */
export async function searchJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { baseUrl } = await credentialsOf(this);
	const listing = await embroideryApiRequest.call(this, {
		...routes.listJobs(),
		schema: JobsListResponseSchema,
	});
	const now = clock.now();
	const words = (filter ?? '')
		.toLowerCase()
		.split(/\s+/)
		.filter((word) => word !== '');
	const results: INodeListSearchItems[] = [];
	for (const job of listing.data) {
		const name = jobLabel(job, now);
		const haystack = `${name} ${job.id} ${job.title ?? ''}`.toLowerCase();
		if (!words.every((word) => haystack.includes(word))) continue;
		// The link carries the workflow, so a job picked here needs no detection.
		results.push({
			name,
			value: job.id,
			url: jobLink(baseUrl, { id: job.id, workflow: job.kind }),
		});
	}
	return { results };
}
