import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { CreatedJob } from '../../helpers/createJobs';
import { downloadJobFiles } from '../../helpers/jobFiles';
import type { FileKind } from '../../helpers/jobFiles';
import { seenJobStatus, seenJobToJson, seenJobUnlocked, unlockJob } from '../../helpers/jobs';
import type { SeenJob } from '../../helpers/jobs';
import { waitForJobs } from '../../helpers/waiting';
import type { ItemResults } from '../types';

/** Wait-and-download settings shared by Create (optional) and Wait for Completion. */
export const completionFields: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description: 'Whether to poll until each job is completed or failed before passing it on',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		default: 600,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { waitForCompletion: [true] } },
		description: 'How long to wait in total; jobs still running then are reported as errors',
	},
	{
		displayName: 'Download Results',
		name: 'downloadResults',
		type: 'multiOptions',
		default: [],
		displayOptions: { show: { waitForCompletion: [true] } },
		options: [
			{
				name: 'Output Files',
				value: 'outputs',
				description: 'The machine files; they must be unlocked first (Job > Unlock)',
			},
			{ name: 'Preview', value: 'preview', description: 'The stitch preview, watermarked while locked' },
		],
		description: 'Which files of each completed job to attach as binary data',
	},
	{
		displayName: 'Unlock Before Download',
		name: 'unlockBeforeDownload',
		type: 'boolean',
		default: false,
		displayOptions: { show: { waitForCompletion: [true], downloadResults: ['outputs'] } },
		description:
			'Whether to unlock each completed job so its machine files can be downloaded. Unlocking spends a subscription entitlement or credits per job.',
	},
	{
		displayName: 'Include Full Job',
		name: 'includeFullJob',
		type: 'boolean',
		default: false,
		displayOptions: { show: { waitForCompletion: [true] } },
		description:
			'Whether to fetch the detailed job (warnings, events, unlock state, all outputs and artifacts) for each completed job. Costs one request per job. Without it, a completed job comes as listed (status, metrics, signed file links); failed jobs and jobs the node unlocks always come detailed.',
	},
];

export interface CompletionOptions {
	waitForCompletion: boolean;
	timeoutMs: number;
	download: FileKind[];
	unlock: boolean;
	includeFullJob: boolean;
}

export function readCompletionOptions(context: IExecuteFunctions, alwaysWait = false): CompletionOptions {
	const waitForCompletion = alwaysWait || (context.getNodeParameter('waitForCompletion', 0, false) as boolean);
	if (!waitForCompletion) return { waitForCompletion, timeoutMs: 0, download: [], unlock: false, includeFullJob: false };
	const seconds = context.getNodeParameter('timeout', 0, 600) as number;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
		throw new NodeOperationError(context.getNode(), `Timeout (Seconds) must be a positive number, got "${String(seconds)}"`);
	}
	const download = context.getNodeParameter('downloadResults', 0, []) as FileKind[];
	const unlock = download.includes('outputs') && (context.getNodeParameter('unlockBeforeDownload', 0, false) as boolean);
	const includeFullJob = context.getNodeParameter('includeFullJob', 0, false) as boolean;
	return { waitForCompletion, timeoutMs: seconds * 1000, download, unlock, includeFullJob };
}

/** Waits for all jobs together, then attaches results; each job stays paired with its own item. */
export async function finishCreatedJobs(
	context: IExecuteFunctions,
	jobs: Array<Pick<CreatedJob, 'itemIndex' | 'id' | 'workflow' | 'json'>>,
	options: CompletionOptions,
	results: ItemResults,
): Promise<void> {
	if (jobs.length === 0) return;
	const itemOf = new Map(jobs.map((job) => [`${job.workflow}/${job.id}`, job.itemIndex]));
	const outcomes = await waitForJobs(
		context,
		jobs.map(({ id, workflow }) => ({ id, workflow })),
		{
			timeoutMs: options.timeoutMs,
			itemIndexOf: (ref) => itemOf.get(`${ref.workflow}/${ref.id}`),
			// The unlock answer is itself the detailed job, so a job about to be unlocked needs no detail now.
			wantsDetail: (item) => options.includeFullJob && !(options.unlock && !item.downloadsUnlocked),
		},
	);
	for (const [index, outcome] of outcomes.entries()) {
		const { itemIndex, json: known } = jobs[index];
		if (!outcome.finished && outcome.error !== undefined) {
			results.fail(itemIndex, outcome.error);
			continue;
		}
		if (!outcome.finished) {
			results.fail(
				itemIndex,
				new NodeOperationError(
					context.getNode(),
					`Job ${outcome.ref.id} is still ${outcome.lastStatus} after ${options.timeoutMs / 1000} s`,
					{
						itemIndex,
						description: `Raise Timeout (Seconds), or check it later with Job > Get (workflow "${outcome.ref.workflow}").`,
					},
				),
			);
			continue;
		}
		const { sourceFile, sourceBinaryField, sourceUrl } = known;
		const extra = sourceFile === undefined ? {} : sourceUrl === undefined ? { sourceFile, sourceBinaryField } : { sourceFile, sourceUrl };
		if (options.download.length === 0 || seenJobStatus(outcome.job) !== 'completed') {
			results.add(itemIndex, { json: seenJobToJson(outcome.job, outcome.ref.workflow, extra) });
			continue;
		}
		try {
			let job: SeenJob = outcome.job;
			if (options.unlock && !seenJobUnlocked(job)) job = { detail: await unlockJob(context, outcome.ref, itemIndex) };
			const downloaded = await downloadJobFiles(
				context,
				outcome.ref,
				options.download,
				{ outputs: 'data', preview: 'preview', source: 'source' },
				itemIndex,
				job,
			);
			// The item shows the job as the options chose to see it, even when a refused URL made the node refetch it.
			results.add(itemIndex, {
				json: { ...seenJobToJson(job, outcome.ref.workflow, extra), files: downloaded.files },
				binary: downloaded.binary,
			});
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
}
