import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { jobRefOf, notFoundAnywhere } from '../../helpers/jobLocator';
import { RetryResponseSchema, embroideryApiRequest, routes } from '../../transport';
import type { OperationOutput } from '../types';
import { jobLocatorFields, jobRefFields } from './fields';
import { withCurrentState } from './stateExplanation';

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['retry'] } },
	[...jobRefFields, ...jobLocatorFields()],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const { ref, located } = await jobRefOf(this, itemIndex);
	try {
		const answer = await embroideryApiRequest.call(this, {
			...routes.retryJob(ref),
			schema: RetryResponseSchema,
			itemIndex,
		});
		return [
			{
				json: {
					...answer.job,
					id: answer.job.id,
					workflow: answer.job.workflow,
					message: answer.message,
				},
			},
		];
	} catch (error) {
		throw await withCurrentState(
			this,
			located ? notFoundAnywhere(this, error, located, itemIndex) : error,
			ref,
			itemIndex,
		);
	}
}
