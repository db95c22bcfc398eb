import { updateDisplayOptions } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { locateJob, notFoundAnywhere, singleJobRef } from '../../helpers/jobLocator';
import { fetchJob } from '../../helpers/fetchJob';
import { jobToJson } from '../../helpers/knownJob';
import { shapeJobItem } from '../../helpers/simplify';
import type { OperationOutput } from '../types';
import { jobLocatorFields, jobRefFields, simplifyFields } from './fields';

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['get'] } },
	[...jobRefFields, ...jobLocatorFields(), ...simplifyFields],
);

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
	return [{ json: shapeJobItem(this, itemIndex, jobToJson(job, located.workflow)) }];
}
