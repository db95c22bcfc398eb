import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jobShaping } from '../../helpers/simplify';
import { jobRefOf, notFoundAnywhere } from '../../helpers/jobLocator';
import { jobToJson } from '../../helpers/knownJob';
import { unlockJob } from '../../helpers/unlocking';
import { textForEachVersion } from '../types';
import type { OperationOption, OperationOutput, OutputShaping } from '../types';
import { jobFieldsToFill, jobLocatorFields, jobRefFields } from './fields';
import { withCurrentState } from '../../helpers/jobStateOnConflict';

export const option: OperationOption = {
	name: 'Unlock',
	description:
		"Unlock a completed job's machine files: spends a subscription entitlement or credits",
	action: 'Unlock job',
};

export const description: INodeProperties[] = [
	{
		displayName:
			'Unlocking spends a subscription entitlement or processing credits from the account ' +
			'(internal accounts unlock free). It never buys credits.',
		name: 'unlockNotice',
		type: 'notice',
		default: '',
	},
	...jobRefFields,
	...jobLocatorFields(),
];

/** Finding a job's workflow may list the recent jobs; the job is inspected before it is unlocked. */
export const routesCalled = ['listJobs', 'getJob', 'unlockJob'] as const;

export const toolDescription = textForEachVersion(
	(version) =>
		"Unlocks a completed job's machine files so they can be downloaded. COSTS MONEY: spends one " +
		'subscription entitlement or, without one, processing credits (Get Usage tells ' +
		'conversionCreditCost and digitisingCreditCost); it fails with 422 when the account cannot ' +
		'pay and never buys credits. Call it only when the user wants the machine file. ' +
		jobFieldsToFill(version),
);

export const output: OutputShaping = { shaping: jobShaping, fromVersion: 3 };

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	// Finding the workflow only ever reads; the unlock itself is sent once per job, to the job's own route.
	const { ref, located } = await jobRefOf(this, itemIndex);
	try {
		// Inspected first, from the detail the workflow search fetched when it did: an unlocked job is not unlocked again.
		const { job, message } = await unlockJob(this, ref, itemIndex, {
			inspect: located?.job ?? 'fetch',
		});
		return [{ json: jobToJson(job, ref.workflow, { message }) }];
	} catch (error) {
		throw await withCurrentState(
			this,
			located ? notFoundAnywhere(this, error, located, itemIndex) : error,
			ref,
			itemIndex,
		);
	}
}
