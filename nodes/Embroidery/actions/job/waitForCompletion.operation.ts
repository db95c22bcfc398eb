import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jobRefsOfItem } from '../../helpers/jobs';
import type { ItemResults } from '../types';
import { completionFields, finishCreatedJobs, readCompletionOptions } from './completion';
import { jobRefFields } from './fields';

const properties: INodeProperties[] = [
	{
		...jobRefFields[0],
		description: 'The ID of the job to wait for; several IDs of the same workflow may be separated by commas',
	},
	jobRefFields[1],
	// Here waiting is the operation itself, so the fields drop their "Wait for Completion" condition.
	...completionFields
		.filter((field) => field.name !== 'waitForCompletion')
		.map((field) => {
			const show = { ...field.displayOptions?.show };
			delete show.waitForCompletion;
			return { ...field, displayOptions: Object.keys(show).length > 0 ? { show } : undefined };
		}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['waitForCompletion'] } },
	properties,
);

/** All items' jobs are waited for together, so one listing per round refreshes every pending job. */
export async function executeAll(
	this: IExecuteFunctions,
	itemIndices: number[],
	results: ItemResults,
): Promise<void> {
	const jobs = [];
	for (const itemIndex of itemIndices) {
		try {
			for (const ref of jobRefsOfItem(this, itemIndex)) jobs.push({ ...ref, itemIndex, json: {} });
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
	await finishCreatedJobs(this, jobs, readCompletionOptions(this, true), results);
}
