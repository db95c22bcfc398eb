import { updateDisplayOptions } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { UsageResponseSchema, embroideryApiRequest, routes } from '../../transport';
import type { OperationOutput } from '../types';

export const description = updateDisplayOptions({ show: { resource: ['account'], operation: ['getUsage'] } }, []);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]> {
	const answer = await embroideryApiRequest.call(this, {
		...routes.getUsage(),
		schema: UsageResponseSchema,
		itemIndex,
	});
	return [{ json: { ...answer.freeUsage } as IDataObject }];
}
