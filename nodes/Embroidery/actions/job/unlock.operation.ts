import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locateJob, notFoundAnywhere } from '../../helpers/jobLocator';
import { jobToJson, singleJobRef } from '../../helpers/jobs';
import type { JobRef } from '../../helpers/jobs';
import { UnlockResponseSchema, embroideryApiRequest, routes } from '../../transport';
import type { OperationOutput } from '../types';
import { jobLocatorFields, jobRefFields } from './fields';
import { withCurrentState } from './stateExplanation';

const properties: INodeProperties[] = [
	{
		displayName:
			'Unlocking spends a subscription entitlement or processing credits from the account (internal accounts unlock free). It never buys credits.',
		name: 'unlockNotice',
		type: 'notice',
		default: '',
	},
	...jobRefFields,
	...jobLocatorFields(),
];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['unlock'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]> {
	// Finding the workflow only ever reads; the unlock itself is sent once, to the job's own route.
	const located = this.getNode().typeVersion < 2 ? undefined : await locateJob(this, itemIndex);
	const ref: JobRef = located ?? singleJobRef(this, itemIndex);
	try {
		const answer = await embroideryApiRequest.call(this, {
			...routes.unlockJob(ref),
			schema: UnlockResponseSchema,
			itemIndex,
		});
		return [{ json: jobToJson(answer.job, ref.workflow, { message: answer.message }) }];
	} catch (error) {
		throw await withCurrentState(this, located ? notFoundAnywhere(this, error, located, itemIndex) : error, ref, itemIndex);
	}
}
