import type { IExecuteFunctions } from 'n8n-workflow';

import { jobShaping } from '../../helpers/simplify';
import { locateJob, notFoundAnywhere, singleJobRef } from '../../helpers/jobLocator';
import { fetchJob } from '../../helpers/fetchJob';
import { jobToJson } from '../../helpers/knownJob';
import type { OperationOption, OperationOutput, OutputShaping, ToolTexts } from '../types';
import { jobFieldsToFill, jobLocatorFields, jobRefFields, version3JobAnswer } from './fields';

export const option: OperationOption = {
	name: 'Get',
	description: "Get a job's status and details",
	action: 'Get job',
};

export const description = [...jobRefFields, ...jobLocatorFields()];

/** Finding a job's workflow may list the recent jobs. */
export const routesCalled = ['getJob', 'listJobs'] as const;

const answer =
	'Returns one job: status (queued, processing, completed or failed), failureCode and ' +
	'failureReason, metrics (stitches, colours, size in mm), warnings, whether its machine files ' +
	'are unlocked, and';

export const toolDescription: ToolTexts = {
	1: `${answer} signed file links. Free. ${jobFieldsToFill(1)}`,
	2:
		`${answer} its file names and sizes. Signed file links and the raw job only when Simplify ` +
		`is off. Free. ${jobFieldsToFill(2)}`,
	3: `Returns one job. ${version3JobAnswer} Free. ${jobFieldsToFill(3)}`,
};

export const output: OutputShaping = { shaping: jobShaping, fromVersion: 2 };

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	if (this.getNode().typeVersion < 2) {
		const ref = singleJobRef(this, itemIndex);
		return [{ json: jobToJson(await fetchJob(this, ref, itemIndex), ref.workflow) }];
	}
	const located = await locateJob(this, itemIndex);
	let job = located.job;
	try {
		job ??= await fetchJob(this, located, itemIndex);
	} catch (error) {
		throw notFoundAnywhere(this, error, located, itemIndex);
	}
	return [{ json: jobToJson(job, located.workflow) }];
}
