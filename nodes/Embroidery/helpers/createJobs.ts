import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { JobAcceptedSchema, embroideryApiRequest } from '../transport';
import type { Workflow } from '../transport';
import type { ItemResults } from '../actions/types';
import { sourceBlob } from './binary';
import { planBatches } from './batching';
import type { BatchingMode } from './batching';
import { buildJobForm, requestFieldsKey } from './jobForm';
import type { JobRequestFields } from './jobForm';
import type { SourceFile } from './validation';

export interface PreparedItem {
	itemIndex: number;
	fields: JobRequestFields;
	sources: SourceFile[];
}

export interface CreatedJob {
	itemIndex: number;
	id: string;
	workflow: Workflow;
	json: IDataObject;
}

/** Items whose request fields match form one group; only those can share a request. */
function groupByRequestFields(items: PreparedItem[]): PreparedItem[][] {
	const groups = new Map<string, PreparedItem[]>();
	for (const item of items) {
		const key = requestFieldsKey(item.fields);
		groups.set(key, [...(groups.get(key) ?? []), item]);
	}
	return [...groups.values()];
}

/**
 * Sends POST /jobs once per batch and pairs each accepted job with the item of its source
 * (the service answers one job per source, in the order sent). POSTs are never retried after
 * a failure other than 429, so no job is created twice.
 */
export async function createJobs(
	context: IExecuteFunctions,
	items: PreparedItem[],
	mode: BatchingMode,
	results: ItemResults,
): Promise<CreatedJob[]> {
	const created: CreatedJob[] = [];
	for (const group of groupByRequestFields(items)) {
		const fields = group[0].fields;
		for (const batch of planBatches(group.map((item) => item.sources), mode)) {
			const batchItems = [...new Set(batch.map((source) => source.itemIndex))];
			try {
				const files = [];
				for (const source of batch) files.push({ blob: await sourceBlob(context, source), fileName: source.fileName });
				const accepted = await embroideryApiRequest.call(context, {
					method: 'POST',
					path: '/jobs',
					body: buildJobForm(fields, files),
					schema: JobAcceptedSchema,
					itemIndex: batchItems[0],
				});
				if (accepted.jobs.length !== batch.length) {
					throw new NodeApiError(
						context.getNode(),
						{ message: 'job count mismatch' },
						{
							message: `The service accepted ${accepted.jobs.length} jobs for ${batch.length} files`,
							description: 'Each source file should become one job. Check Job > Get Many for what was created.',
							itemIndex: batchItems[0],
						},
					);
				}
				accepted.jobs.forEach((job, index) => {
					const source = batch[index];
					created.push({
						itemIndex: source.itemIndex,
						id: job.id,
						workflow: job.workflow,
						json: {
							id: job.id,
							workflow: job.workflow,
							status: job.status,
							format: fields.format,
							sourceFile: source.fileName,
							sourceBinaryField: source.propertyName,
							message: accepted.message,
							freeUsage: accepted.freeUsage as IDataObject,
						},
					});
				});
			} catch (error) {
				for (const itemIndex of batchItems) results.fail(itemIndex, error);
			}
		}
	}
	return created;
}
