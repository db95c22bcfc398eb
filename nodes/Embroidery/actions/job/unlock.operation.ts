import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jobRefOf, notFoundAnywhere } from '../../helpers/jobLocator';
import { jobToJson } from '../../helpers/knownJob';
import { unlockJob } from '../../helpers/unlocking';
import type { OperationOutput } from '../types';
import { jobLocatorFields, jobRefFields } from './fields';
import { withCurrentState } from '../../helpers/jobStateOnConflict';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['unlock'] } },
	properties,
);

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
