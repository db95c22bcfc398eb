import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { fetchJob, jobToJson, singleJobRef } from '../../helpers/jobs';
import type { OperationOutput } from '../types';
import { jobRefFields } from './fields';

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['get'] } }, jobRefFields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]> {
	const ref = singleJobRef(this, itemIndex);
	const job = await fetchJob(this, ref, itemIndex);
	return [{ json: jobToJson(job, ref.workflow) }];
}
