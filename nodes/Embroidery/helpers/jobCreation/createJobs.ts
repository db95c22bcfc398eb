import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	JobAcceptedSchema,
	UsageResponseSchema,
	carryOnWithCreated,
	embroideryApiRequest,
	jobAdvice,
	nodeErrorOf,
	oneFilePerRequestAdvice,
	routes,
} from '../../transport';
import type { JobRef } from '../../transport';
import type { CreatedJob } from '../knownJob';
import { sourceFile } from '../binary';
import type { EarlierCreations } from '../earlierTries';
import { refusedBeforeActing, sourceKey } from '../earlierTries';
import { jobsError } from '../jobErrors';
import { planBatches } from './batching';
import type { BatchingMode } from './batching';
import { buildJobForm, requestFieldsKey } from './jobForm';
import type { JobRequestFields } from './jobForm';
import type { SourceFile } from './checks';

export interface PreparedItem {
	itemIndex: number;
	fields: JobRequestFields;
	sources: SourceFile[];
	/** The item's request as a key (parameters and input files): what an earlier try sent is reused only for it. */
	identity: string;
	/** How many source files the item has in all, those an earlier try already made into jobs included. */
	sourceCount: number;
}

/**
 * Where createJobs reports each item's failure and every job the service accepted; the router's ItemResults is
 * one (declared here, so helpers need nothing from actions/).
 */
export interface CreationReport {
	fail(itemIndex: number, error: unknown): void;
	jobCreated(itemIndex: number, job: JobRef): void;
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
 * A 422 for a request of several files may be the limit of free processing (one source per request,
 * spec: Files per request). Only then, one GET /usage confirms it, so the error can say what to change.
 */
async function withOneFileHint(
	context: IExecuteFunctions,
	error: unknown,
	files: number,
	mode: BatchingMode,
	itemIndex: number,
): Promise<unknown> {
	if (files < 2 || !(error instanceof NodeApiError) || error.httpCode !== '422') return error;
	try {
		const { freeUsage } = await embroideryApiRequest.call(context, {
			...routes.getUsage(),
			schema: UsageResponseSchema,
			itemIndex,
		});
		if (!freeUsage.limited) return error;
	} catch {
		return error;
	}
	return new NodeApiError(
		context.getNode(),
		{ message: error.message, httpCode: '422' },
		{
			message: `This account is on limited free processing, which accepts one file per request: ${error.message}`,
			description:
				`${oneFilePerRequestAdvice(mode === 'combine', files)} ${error.description ?? ''}`.trim(),
			httpCode: '422',
			itemIndex,
		},
	);
}

/**
 * The service accepted another number of jobs than files were sent, so no job can be paired with its file:
 * the error names every accepted job (and carries them to the error items), so none is created again.
 */
function jobCountMismatch(
	context: IExecuteFunctions,
	jobs: JobRef[],
	files: number,
	itemIndex: number,
): NodeApiError {
	const one = jobs.length === 1;
	const named = jobs.map((job) => `${job.id} (${job.workflow})`).join(', ');
	const created =
		jobs.length === 0
			? 'The answer named no job.'
			: `The service created ${named}; ${carryOnWithCreated(jobs.length)}`;
	const error = new NodeApiError(
		context.getNode(),
		{ message: 'job count mismatch' },
		{
			message: `The service accepted ${jobs.length} ${one ? 'job' : 'jobs'} for ${files} files`,
			description: jobAdvice.countMismatch(created),
			itemIndex,
		},
	);
	return jobsError(error, jobs);
}

// Numbers the creation requests of this process, so jobs of one request are told apart from any
// other's (a retry's too).
let requestsMade = 0;

/**
 * Sends POST /jobs once per batch and pairs each accepted job with the item of its source
 * (the service answers one job per source, in the order sent). POSTs are never retried after
 * a failure other than 429, so no job is created twice; each sent source is recorded in `earlier`
 * (what n8n's Retry On Fail consults) before the request goes out.
 */
export async function createJobs(
	context: IExecuteFunctions,
	items: PreparedItem[],
	mode: BatchingMode,
	results: CreationReport,
	earlier: EarlierCreations,
): Promise<CreatedJob[]> {
	const created: CreatedJob[] = [];
	const itemOf = new Map(items.map((item) => [item.itemIndex, item]));
	for (const group of groupByRequestFields(items)) {
		const fields = group[0].fields;
		for (const batch of planBatches(
			group.map((item) => item.sources),
			mode,
		)) {
			const batchItems = [...new Set(batch.map((source) => source.itemIndex))];
			const record = (note: (item: PreparedItem, key: string) => void) =>
				batch.forEach((source) => note(itemOf.get(source.itemIndex)!, sourceKey(source)));
			const thisBatch = ++requestsMade;
			// Between sending and the answer, the service may have made the jobs: an error then leaves them unknown.
			let sent = false;
			try {
				const files: File[] = [];
				for (const source of batch) files.push(await sourceFile(context, source));
				record((item, key) =>
					earlier.sending(
						item.itemIndex,
						item.identity,
						key,
						'the try ended before the answer came',
					),
				);
				sent = true;
				const accepted = await embroideryApiRequest.call(context, {
					...routes.createJobs(),
					body: buildJobForm(fields, files),
					schema: JobAcceptedSchema,
					itemIndex: batchItems[0],
				});
				sent = false;
				// Registered before anything else can fail, so an error that ends the run still names them.
				accepted.jobs.forEach((job, index) =>
					results.jobCreated(batch[index]?.itemIndex ?? batchItems[0], job),
				);
				if (accepted.jobs.length !== batch.length) {
					const mismatch = jobCountMismatch(context, accepted.jobs, batch.length, batchItems[0]);
					record((item, key) =>
						earlier.unknown(item.itemIndex, item.identity, key, mismatch.message),
					);
					throw mismatch;
				}
				// A later Wait for Completion or Download node checks the pairing by these, as this run does below.
				const sameRequestJobs =
					batch.length > 1 ? { sameRequestJobs: accepted.jobs.map((job) => job.id) } : {};
				accepted.jobs.forEach((job, index) => {
					const source = batch[index];
					const createdJob: CreatedJob = {
						itemIndex: source.itemIndex,
						id: job.id,
						workflow: job.workflow,
						sentName: source.fileName,
						batch: thisBatch,
						requestFiles: batch.length,
						json: {
							id: job.id,
							workflow: job.workflow,
							status: job.status,
							format: fields.format,
							sourceFile: source.fileName,
							// A job made from a URL names its link instead of a binary field.
							...('sourceUrl' in source
								? { sourceUrl: String(source.sourceUrl) }
								: { sourceBinaryField: source.propertyName }),
							...sameRequestJobs,
							message: accepted.message,
							...(accepted.freeUsage ? { freeUsage: accepted.freeUsage as IDataObject } : {}),
						},
					};
					created.push(createdJob);
					const item = itemOf.get(source.itemIndex)!;
					earlier.created(
						item.itemIndex,
						item.identity,
						sourceKey(source),
						createdJob,
						item.sourceCount,
					);
				});
			} catch (error) {
				if (sent && refusedBeforeActing(error))
					record((item, key) => earlier.refused(item.itemIndex, key));
				else if (sent) {
					const reason = nodeErrorOf(context.getNode(), error).message;
					record((item, key) => earlier.unknown(item.itemIndex, item.identity, key, reason));
				}
				const explained = await withOneFileHint(context, error, batch.length, mode, batchItems[0]);
				for (const itemIndex of batchItems) results.fail(itemIndex, explained);
			}
		}
	}
	return created;
}
