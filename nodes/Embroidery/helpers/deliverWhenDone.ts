import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { downloadJobFiles } from './jobFiles';
import type { FileKind } from './jobFiles';
import { jobError } from './jobErrors';
import { fetchJob } from './fetchJob';
import { shownSourceNameOf, jobStatusOf, knownJobToJson, areDownloadsUnlocked } from './knownJob';
import type { CreatedJob, KnownJob } from './knownJob';
import { pairBySourceName, sourceMismatchError } from './sourcePairing';
import { unlockJob } from './unlocking';
import { waitForJobs } from './waiting';
import { jobKey, nodeErrorOf, parameterAdvice } from '../transport';
import type { Job, JobRef } from '../transport';

/** Ten minutes unless the user says otherwise: a stuck job then ends its item instead of holding the workflow. */
export const defaultTimeoutSeconds = 600;

export interface CompletionOptions {
	waitForCompletion: boolean;
	timeoutMs: number;
	download: FileKind[];
	unlock: boolean;
	includeFullJob: boolean;
	showWarnings: boolean;
	/** Whether the jobs were created by this run (then an error says not to create them again). */
	created: boolean;
}

/**
 * The options of the whole run, read from its first item: the jobs of every item are waited for, unlocked and
 * downloaded together. Wait for Completion always waits, on jobs it did not create; Create waits when asked.
 */
export function runCompletionOptions(
	context: IExecuteFunctions,
	operation: 'create' | 'waitForCompletion',
): CompletionOptions {
	const created = operation === 'create';
	const waitForCompletion =
		!created || (context.getNodeParameter('waitForCompletion', 0, false) as boolean);
	if (!waitForCompletion) {
		return {
			waitForCompletion,
			timeoutMs: 0,
			download: [],
			unlock: false,
			includeFullJob: false,
			showWarnings: false,
			created,
		};
	}
	const seconds = context.getNodeParameter('timeout', 0, defaultTimeoutSeconds) as number;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
		throw new NodeOperationError(
			context.getNode(),
			`'Timeout (Seconds)' must be a positive number, got "${String(seconds)}"`,
			{
				description: parameterAdvice.timeout(defaultTimeoutSeconds),
			},
		);
	}
	const download = context.getNodeParameter('downloadResults', 0, []) as FileKind[];
	const unlock =
		download.includes('outputs') &&
		(context.getNodeParameter('unlockBeforeDownload', 0, false) as boolean);
	const includeFullJob = context.getNodeParameter('includeFullJob', 0, false) as boolean;
	const showWarnings = context.getNodeParameter('showWarnings', 0, true) !== false;
	return {
		waitForCompletion,
		timeoutMs: seconds * 1000,
		download,
		unlock,
		includeFullJob,
		showWarnings,
		created,
	};
}

/** Where each job's item or failure goes: the router's results, which keep every job paired with its item. */
export interface DeliveredItems {
	add(itemIndex: number, output: { json: IDataObject; binary?: IBinaryKeyData }): void;
	fail(itemIndex: number, error: unknown): void;
}

/** What Show Warnings adds to a completed job's item, and the detail fetched for it, if any. */
interface WarningsSeen {
	fields: IDataObject;
	detail?: Job;
}

/**
 * A listed job's warnings come only with its detail: one request, and a failure of it costs the job nothing.
 * The detail is kept, so the job's files are taken from it instead of being fetched again.
 */
async function warningsOf(
	context: IExecuteFunctions,
	job: KnownJob,
	ref: JobRef,
	itemIndex: number,
): Promise<WarningsSeen> {
	if (job.detail) return { fields: {} };
	try {
		const detail = await fetchJob(context, ref, itemIndex);
		// The detail also tells the attempt count, which the listing entry lacks (Unlock and Download show it too).
		const attempts = detail.attemptCount === undefined ? {} : { attemptCount: detail.attemptCount };
		return { fields: { warnings: detail.warnings, ...attempts }, detail };
	} catch (error) {
		return {
			fields: { warningsUnavailable: nodeErrorOf(context.getNode(), error, itemIndex).message },
		};
	}
}

/**
 * Waits for all jobs together, then attaches results; each job stays paired with its own item. Every job
 * comes out: as its item, or as an error that names it and says how to carry on (a job that finished is
 * delivered even when others time out or fail).
 */
export async function deliverJobsWhenDone(
	context: IExecuteFunctions,
	jobs: Array<
		Pick<
			CreatedJob,
			'itemIndex' | 'id' | 'workflow' | 'json' | 'sentName' | 'batch' | 'requestFiles'
		>
	>,
	options: CompletionOptions,
	results: DeliveredItems,
): Promise<void> {
	if (jobs.length === 0) return;
	const itemOf = new Map(jobs.map((job) => [jobKey(job), job.itemIndex]));
	const outcomes = await waitForJobs(
		context,
		jobs.map(({ id, workflow }) => ({ id, workflow })),
		{
			timeoutMs: options.timeoutMs,
			itemIndexOf: (ref) => itemOf.get(jobKey(ref)),
			// The unlock answer is itself the detailed job, so a job about to be unlocked needs no detail now.
			wantsDetail: (item) => options.includeFullJob && !(options.unlock && !item.downloadsUnlocked),
		},
	);
	// The creation answer paired jobs with files by array order; the names the service now shows check that.
	const pairing = pairBySourceName(
		outcomes.map((outcome, index) => ({
			sentName: jobs[index].sentName,
			batch: jobs[index].batch,
			requestFiles: jobs[index].requestFiles,
			shownName: outcome.finished ? shownSourceNameOf(outcome.job) : undefined,
		})),
	);
	for (const [index, outcome] of outcomes.entries()) {
		const paired = pairing[index];
		if ('mismatch' in paired) {
			results.fail(
				jobs[index].itemIndex,
				sourceMismatchError(context.getNode(), outcome.ref, jobs[index].itemIndex, paired.mismatch),
			);
			continue;
		}
		const { itemIndex, json: known } = jobs[paired.use];
		const failForJob = (error: unknown) =>
			results.fail(
				itemIndex,
				jobError(context.getNode(), error, outcome.ref, itemIndex, options.created),
			);
		if (!outcome.finished && outcome.error !== undefined) {
			failForJob(outcome.error);
			continue;
		}
		if (!outcome.finished) {
			failForJob(
				new NodeOperationError(
					context.getNode(),
					`Job ${outcome.ref.id} is still ${outcome.lastStatus} after ${options.timeoutMs / 1000} s`,
					{ itemIndex, description: parameterAdvice.stillRunning },
				),
			);
			continue;
		}
		const { sourceFile, sourceBinaryField, sourceUrl, sameRequestJobs } = known;
		const extra =
			sourceFile === undefined
				? {}
				: {
						sourceFile,
						...(sourceUrl === undefined ? { sourceBinaryField } : { sourceUrl }),
						...(sameRequestJobs === undefined ? {} : { sameRequestJobs }),
					};
		const completed = jobStatusOf(outcome.job) === 'completed';
		try {
			let job: KnownJob = outcome.job;
			const wantsUnlock =
				completed && options.download.length > 0 && options.unlock && !areDownloadsUnlocked(job);
			// A job named by several items is unlocked once; they all get its answer.
			if (wantsUnlock) job = { detail: (await unlockJob(context, outcome.ref, itemIndex)).job };
			const seen =
				completed && options.showWarnings
					? await warningsOf(context, job, outcome.ref, itemIndex)
					: { fields: {} };
			if (options.download.length === 0 || !completed) {
				results.add(itemIndex, {
					json: knownJobToJson(job, outcome.ref.workflow, { ...extra, ...seen.fields }),
				});
				continue;
			}
			const downloaded = await downloadJobFiles(
				context,
				outcome.ref,
				options.download,
				{ outputs: 'data', preview: 'preview', source: 'source' },
				itemIndex,
				// The detail fetched for the warnings has every file; the listing entry's links, which the
				// spec defines, come first.
				seen.detail ? { detail: seen.detail, listed: job.listed } : job,
			);
			// The item shows the job as the options chose to see it, even when a refused URL made the node refetch it.
			results.add(itemIndex, {
				json: {
					...knownJobToJson(job, outcome.ref.workflow, { ...extra, ...seen.fields }),
					files: downloaded.files,
				},
				binary: downloaded.binary,
			});
		} catch (error) {
			failForJob(error);
		}
	}
}
