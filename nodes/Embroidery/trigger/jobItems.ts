import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Job, JobListItem } from '../transport';
import { downloadJobFiles } from './jobFiles';
import type { FetchedJob, ListedJob } from './jobRequests';
import { fetchJobIfPresent } from './jobRequests';
import type { SeenJob } from './pollState';

export interface TriggerOptions {
	includeFullJob: boolean;
	downloadFiles: boolean;
}

export interface EndedJob {
	job: SeenJob;
	listed?: ListedJob;
	fetched?: FetchedJob;
}

const lockedOutputsNote =
	'The machine files stay locked until the job is unlocked (Embroidery node: Job > Unlock, which spends a subscription entitlement or credits). The preview is watermarked until then.';

function without(record: object, keys: string[]): IDataObject {
	return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key))) as IDataObject;
}

/** id, workflow and status first (as the trigger saw them), then the listing entry's or the detailed job's fields. */
function summaryJson(job: SeenJob, item: JobListItem | undefined, full: Job | undefined): IDataObject {
	const details = item ? without(item, ['id', 'kind', 'status']) : without(full ?? {}, ['id', 'status']);
	return { id: job.id, workflow: job.workflow, status: job.status, ...details };
}

/** The output item for one job that ended: id, workflow and status first, then the details the options ask for. */
export async function jobEndingItem(
	context: IPollFunctions,
	ended: EndedJob,
	options: TriggerOptions,
	reportEveryFileFailure = false,
): Promise<INodeExecutionData> {
	const { job } = ended;
	const wantsFiles = options.downloadFiles && job.status === 'completed';
	// Failures carry their code only in the detailed job, so a failed job always costs one request.
	const needsFullJob = options.includeFullJob || job.status === 'failed' || (wantsFiles && !ended.listed);
	let full = ended.fetched?.job;
	if (!full && needsFullJob) full = (await fetchJobIfPresent(context, job))?.job;

	const json = summaryJson(job, options.includeFullJob && full ? undefined : ended.listed?.item, full);
	if (job.status === 'failed') {
		json.failureCode = full?.failureCode ?? null;
		json.failureReason = full?.failureReason ?? ended.listed?.item.failureReason ?? null;
	}
	const unlocked = full?.downloadsUnlocked ?? ended.listed?.item.downloadsUnlocked ?? false;
	if (job.status === 'completed' && !unlocked) {
		json.outputsLocked = true;
		json.outputsLockedNote = lockedOutputsNote;
	}
	if (!wantsFiles) return { json };
	const binary = await downloadJobFiles(context, ended, full, json, reportEveryFileFailure);
	return Object.keys(binary).length > 0 ? { json, binary } : { json };
}
