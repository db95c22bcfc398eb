import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { streamJobFiles } from '../helpers/jobFiles';
import type { FileKind, FilePolicy } from '../helpers/jobFiles';
import type { JobSnapshot } from '../helpers/jobSnapshot';
import { nodeErrorOf, triggerAdvice } from '../transport';
import type { Job, JobListItem } from '../transport';
import type { FetchedJob, ListedJob } from './jobRequests';
import { fetchJobIfPresent } from './jobRequests';
import type { TrackedJob } from './pollState';

export interface TriggerOptions {
	includeFullJob: boolean;
	downloadFiles: boolean;
	/** Whether a completed job's item carries its warnings, which only the detailed job has. */
	showWarnings: boolean;
}

export interface EndedJob {
	job: TrackedJob;
	listed?: ListedJob;
	fetched?: FetchedJob;
}

/** Item names of the files the trigger attaches: the preview, and the machine files under "output". */
const triggerFields: Record<FileKind, string> = {
	preview: 'preview',
	outputs: 'output',
	source: 'source',
};

/**
 * A file the service refuses for good is reported on the item; a network or server failure is thrown so the
 * poll is repeated, unless this is the job's last try (it failed earlier polls), so one broken file
 * cannot stall the trigger.
 */
function triggerFilePolicy(lastTry: boolean): FilePolicy {
	return {
		fields: triggerFields,
		onFailure: lastTry ? 'reportAll' : 'reportClientErrors',
		missingKind: 'skip',
	};
}

function without(record: object, keys: string[]): IDataObject {
	return Object.fromEntries(
		Object.entries(record).filter(([key]) => !keys.includes(key)),
	) as IDataObject;
}

/** id, workflow and status first (as the trigger saw them), then the listing entry's or the detailed job's fields. */
function summaryJson(
	job: TrackedJob,
	item: JobListItem | undefined,
	full: Job | undefined,
): IDataObject {
	const details = item
		? without(item, ['id', 'kind', 'status'])
		: without(full ?? {}, ['id', 'status']);
	return { id: job.id, workflow: job.workflow, status: job.status, ...details };
}

/**
 * The output item for one job that ended: id, workflow and status first, then the details the options ask for.
 * On the job's last try (`lastTry`: it failed earlier polls), whatever still fails is put on the
 * item instead of thrown.
 */
export async function jobEndingItem(
	context: IPollFunctions,
	ended: EndedJob,
	options: TriggerOptions,
	lastTry = false,
): Promise<INodeExecutionData> {
	const { job } = ended;
	const wantsFiles = options.downloadFiles && job.status === 'completed';
	const wantsWarnings = options.showWarnings && job.status === 'completed';
	// Only the detailed job has a failure's code and a job's warnings: one request per such job, and its files
	// then come from that same detail, so no job is fetched twice.
	const needsFullJob =
		options.includeFullJob ||
		job.status === 'failed' ||
		wantsWarnings ||
		(wantsFiles && !ended.listed);
	let full = ended.fetched?.job;
	let detailError: string | undefined;
	if (!full && needsFullJob) {
		try {
			full = (await fetchJobIfPresent(context, job))?.job;
		} catch (error) {
			if (!lastTry) throw nodeErrorOf(context.getNode(), error);
			detailError = nodeErrorOf(context.getNode(), error).message;
		}
	}

	const json = summaryJson(
		job,
		options.includeFullJob && full ? undefined : ended.listed?.item,
		full,
	);
	if (detailError !== undefined) json.detailError = detailError;
	if (wantsWarnings && full) json.warnings = full.warnings;
	if (job.status === 'failed') {
		json.failureCode = full?.failureCode ?? null;
		json.failureReason = full?.failureReason ?? ended.listed?.item.failureReason ?? null;
	}
	const unlocked = full?.downloadsUnlocked ?? ended.listed?.item.downloadsUnlocked ?? false;
	if (job.status === 'completed' && !unlocked) {
		json.outputsLocked = true;
		json.outputsLockedNote = triggerAdvice.lockedOutputs;
	}
	const known: JobSnapshot | undefined = full
		? { detail: full }
		: ended.listed
			? { listed: ended.listed.item }
			: undefined;
	if (!wantsFiles) return { json };
	if (!known) return { json: { ...json, files: [] } };
	const kinds: FileKind[] = unlocked ? ['preview', 'outputs'] : ['preview'];
	const result = await streamJobFiles(context, job, kinds, triggerFilePolicy(lastTry), {
		known,
		listed: ended.listed?.item,
	});
	json.files = result.saved.map((file) => ({
		kind: file.kind === 'outputs' ? 'output' : file.kind,
		binaryField: file.field,
		fileName: file.fileName,
		mimeType: file.mimeType,
	}));
	if (result.failed.length > 0) {
		json.fileErrors = result.failed.map((file) => ({
			kind: file.kind === 'outputs' ? 'output' : file.kind,
			fileName: file.fileName,
			error: file.error.message,
		}));
	}
	return Object.keys(result.binary).length > 0 ? { json, binary: result.binary } : { json };
}
