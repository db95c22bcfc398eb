import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jobShaping } from '../../helpers/simplify';
import { sentSourceOfItem } from '../../helpers/sourcePairing';
import { jobPointersOfItem, jobRefsOfItem, workflowFinderOf } from '../../helpers/jobLocator';
import type { JobRef } from '../../transport';
import type { ItemResults, OperationOption, OutputShaping, ToolTexts } from '../types';
import { deliverJobsWhenDone, runCompletionOptions } from '../../helpers/deliverWhenDone';
import { completionFields } from '../common.descriptions';
import { jobFieldsToFill, jobLocatorFields, jobRefFields } from './fields';

export const option: OperationOption = {
	name: 'Wait for Completion',
	description: 'Wait until jobs are completed or failed',
	action: 'Wait for jobs to complete',
};

export const description: INodeProperties[] = [
	{
		...jobRefFields[0],
		description:
			'The ID of the job to wait for; several IDs of the same workflow may be separated by commas',
	},
	jobRefFields[1],
	...jobLocatorFields(true),
	// Here waiting is the operation itself, so the fields drop their "Wait for Completion" condition.
	...completionFields
		.filter((field) => field.name !== 'waitForCompletion')
		.map((field) => {
			const show = { ...field.displayOptions?.show };
			delete show.waitForCompletion;
			return { ...field, displayOptions: Object.keys(show).length > 0 ? { show } : undefined };
		}),
];

/** Finding a job's workflow may list the recent jobs; waiting lists and gets them, unlocks and downloads. */
export const routesCalled = ['listJobs', 'getJob', 'unlockJob', 'signedFile'] as const;

const waits = 'Waits until jobs are completed or failed and returns each of them. Free.';

export const toolDescription: ToolTexts = {
	1: `${waits} ${jobFieldsToFill(1)} Several ids may be given, separated by commas.`,
	2: `${waits} ${jobFieldsToFill(2, 'Jobs')}`,
	3: `${waits} ${jobFieldsToFill(3, 'Jobs')}`,
};

export const output: OutputShaping = { shaping: jobShaping, fromVersion: 3 };

/** The jobs an item names; from version 2 on, with each job's workflow found when the fields leave it open. */
async function jobsOfItem(context: IExecuteFunctions, itemIndex: number): Promise<JobRef[]> {
	if (context.getNode().typeVersion < 2) return jobRefsOfItem(context, itemIndex);
	const finder = workflowFinderOf(context);
	const refs: JobRef[] = [];
	for (const pointer of jobPointersOfItem(context, itemIndex, { several: true })) {
		const { id, workflow } = await finder.locate(pointer, itemIndex);
		refs.push({ id, workflow });
	}
	return refs;
}

/** All items' jobs are waited for together, so one listing per round refreshes every pending job. */
export async function executeAll(
	this: IExecuteFunctions,
	itemIndices: number[],
	results: ItemResults,
): Promise<void> {
	const jobs = [];
	const input = this.getInputData();
	for (const itemIndex of itemIndices) {
		try {
			const json = input[itemIndex]?.json ?? {};
			for (const ref of await jobsOfItem(this, itemIndex)) {
				// An item of Create (Combine Items) carries the file its job was sent for: the pairing is checked here.
				const sent = sentSourceOfItem(json, ref);
				const { sourceFile, sourceBinaryField, sourceUrl, sameRequestJobs } = json;
				const carried =
					sent.sentName === undefined
						? {}
						: {
								sourceFile,
								sameRequestJobs,
								...(sourceUrl ? { sourceUrl } : { sourceBinaryField }),
							};
				jobs.push({ ...ref, itemIndex, json: carried, ...sent });
			}
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
	await deliverJobsWhenDone(this, jobs, runCompletionOptions(this, 'waitForCompletion'), results);
}
