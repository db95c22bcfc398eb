import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { singleJobRef } from '../../helpers/jobs';
import { RetryResponseSchema, embroideryApiRequest, routes } from '../../transport';
import type { OperationOutput } from '../types';
import { jobRefFields } from './fields';
import { withCurrentState } from './stateExplanation';

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['retry'] } }, jobRefFields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]> {
	const ref = singleJobRef(this, itemIndex);
	try {
		const answer = await embroideryApiRequest.call(this, {
			...routes.retryJob(ref),
			schema: RetryResponseSchema,
			itemIndex,
		});
		return [{ json: { ...answer.job, id: answer.job.id, workflow: answer.job.workflow, message: answer.message } }];
	} catch (error) {
		throw await withCurrentState(this, error, ref, itemIndex);
	}
}
