import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { jobAdvice, nodeErrorOf } from '../transport';
import type { JobListItem, JobRef } from '../transport';
import { addBinary, downloadToBinary } from './binary';
import { fileLinksOf } from './fileLinks';
import type { FileKind, FileLink } from './fileLinks';
import { fetchJob } from './fetchJob';
import { jobStatusOf, areDownloadsUnlocked } from './knownJob';
import type { KnownJob } from './knownJob';

// A job's files, for the action node and the trigger alike: which signed links a job carries, one
// refetch of the job when a link is refused, and what a file that still fails does (the policy).

export type { FileKind };

export type FilesContext = IExecuteFunctions | IPollFunctions;

/** What to do with a job's files; the action node and the trigger differ only here. */
export interface FilePolicy {
	/** Binary field of each kind; a second file of a kind gets the suffix _2, and so on. */
	fields: Record<FileKind, string>;
	/**
	 * A file that still fails: `throw` ends the job's item with the error; `reportClientErrors` lists a
	 * refusal (4xx but 429) in `failed` and throws the rest, so they are tried again; `reportAll` lists every failure.
	 */
	onFailure: 'throw' | 'reportClientErrors' | 'reportAll';
	/** Whether a kind the job has no file of is an error or simply left out. */
	missingKind: 'throw' | 'skip';
}

export interface SavedFile {
	kind: FileKind;
	field: string;
	fileName: string | null;
	mimeType: string;
}

export interface FailedFile {
	kind: FileKind;
	fileName: string | null;
	error: NodeApiError | NodeOperationError;
}

export interface JobFiles {
	/** The job as last fetched, with the links actually used. */
	job: KnownJob;
	binary: IBinaryKeyData;
	saved: SavedFile[];
	failed: FailedFile[];
}

function isClientError(error: unknown): boolean {
	return (
		error instanceof NodeApiError &&
		/^4\d\d$/.test(error.httpCode ?? '') &&
		error.httpCode !== '429'
	);
}

/** A download, or why not; `noUrl` when the job gave no link at all (a refusal a fresh job may cure). */
type Attempt = { data: IBinaryData } | { error: NodeApiError | NodeOperationError; noUrl?: true };

async function tryDownload(
	context: FilesContext,
	link: FileLink,
	itemIndex?: number,
): Promise<Attempt> {
	if (!link.url) {
		const which = link.fileName ? ` "${link.fileName}"` : '';
		const found = link.unusable ? ` (${link.unusable})` : '';
		return {
			error: new NodeOperationError(
				context.getNode(),
				`The service gave no signed URL the node can use for this file${which}${found}`,
				{
					itemIndex,
					description: jobAdvice.noLink,
				},
			),
			noUrl: true,
		};
	}
	try {
		return { data: await downloadToBinary(context, link.url, itemIndex, link) };
	} catch (error) {
		return { error: nodeErrorOf(context.getNode(), error, itemIndex) };
	}
}

/** A file the job fetched again no longer lists: it keeps its name, and what was found of it before. */
function notListedAgain(link: FileLink): FileLink {
	return {
		...link,
		url: null,
		unusable: link.unusable ?? 'the job fetched again lists no such file',
	};
}

/** An expired signature is refused with 403; a 410 means the source itself expired, which no fresh link cures. */
const REFETCH_ON_REFUSAL: readonly string[] = ['403'];

/** A link with no URL, or one the service refused in a way a fresh link may cure. */
function mayBeCuredByRefetch(attempt: Exclude<Attempt, { data: IBinaryData }>): boolean {
	if (attempt.noUrl) return true;
	return (
		attempt.error instanceof NodeApiError &&
		REFETCH_ON_REFUSAL.includes(attempt.error.httpCode ?? '')
	);
}

/** A refusal that retrying later will not change: reported on the trigger's item at once. */
function laterTryWontHelp(attempt: Exclude<Attempt, { data: IBinaryData }>): boolean {
	return attempt.noUrl === true || isClientError(attempt.error);
}

/** A link taken from a job fetched moments ago was refused: expiry is ruled out, so say what else it can be. */
function refusedAfterRefetch(
	context: FilesContext,
	error: NodeApiError | NodeOperationError,
	itemIndex?: number,
) {
	if (!(error instanceof NodeApiError) || error.httpCode !== '403') return error;
	return new NodeApiError(
		context.getNode(),
		{ message: error.message, httpCode: '403' },
		{
			message: error.message,
			description: jobAdvice.refusedAfterRefetch,
			httpCode: '403',
			itemIndex,
		},
	);
}

function kindLabel(kind: FileKind): string {
	return kind === 'outputs' ? 'output files' : kind;
}

/**
 * Streams a job's files of the given kinds into binary fields, from the signed URLs of the job as last
 * seen (fetched now when not given; a listing entry that lacks a usable link for a wanted kind is fetched in
 * detail once). The listing entry's links (`known.listed`, or `listed` beside a detail) come before the detail's,
 * as the spec defines only them. A refused URL leads to exactly one refetch of the job; the node never builds a URL.
 */
export async function streamJobFiles(
	context: FilesContext,
	ref: JobRef,
	kinds: FileKind[],
	policy: FilePolicy,
	options: { known?: KnownJob; listed?: JobListItem; itemIndex?: number } = {},
): Promise<JobFiles> {
	const { itemIndex } = options;
	let job: KnownJob = options.known ?? { detail: await fetchJob(context, ref, itemIndex) };
	if (job.detail && !job.listed && options.listed) job = { ...job, listed: options.listed };
	const hasUsableLink = (kind: FileKind) =>
		fileLinksOf(job, kind).some((link) => link.url !== null);
	// Listing entries may carry only the spec's required fields: the detailed job has every file.
	let detailError: NodeApiError | NodeOperationError | undefined;
	if (!job.detail && !kinds.every(hasUsableLink)) {
		try {
			job = { detail: await fetchJob(context, ref, itemIndex), listed: job.listed };
		} catch (error) {
			if (policy.onFailure !== 'reportAll') throw nodeErrorOf(context.getNode(), error, itemIndex);
			detailError = nodeErrorOf(context.getNode(), error, itemIndex);
		}
	}
	let refetched = false;
	const binary: IBinaryKeyData = {};
	const saved: SavedFile[] = [];
	const failed: FailedFile[] = [];
	for (const kind of kinds) {
		const links = fileLinksOf(job, kind);
		if (links.length === 0 && policy.missingKind === 'throw') {
			throw new NodeOperationError(context.getNode(), `Job ${ref.id} has no ${kindLabel(kind)}`, {
				itemIndex,
			});
		}
		if (links.length === 0 && detailError)
			failed.push({ kind, fileName: null, error: detailError });
		for (let index = 0; index < links.length; index++) {
			// After a refetch, the later files of this kind come from the fresh job too.
			let attempt = await tryDownload(
				context,
				fileLinksOf(job, kind)[index] ?? { url: null },
				itemIndex,
			);
			if ('error' in attempt && !refetched && mayBeCuredByRefetch(attempt)) {
				refetched = true;
				try {
					// The listing entry's links are as old as the one just refused: the fresh job's links replace them.
					job = { detail: await fetchJob(context, ref, itemIndex) };
					const fresh = await tryDownload(
						context,
						fileLinksOf(job, kind)[index] ?? notListedAgain(links[index]),
						itemIndex,
					);
					attempt =
						'error' in fresh
							? { ...fresh, error: refusedAfterRefetch(context, fresh.error, itemIndex) }
							: fresh;
				} catch (error) {
					// The job itself is gone or refused: the file's own refusal says more; anything else is the job's
					// failure, tried again later unless this is the last try.
					const tryLater = policy.onFailure === 'reportClientErrors' && !isClientError(error);
					if (policy.onFailure === 'throw' || tryLater)
						throw nodeErrorOf(context.getNode(), error, itemIndex);
				}
			}
			if ('error' in attempt) {
				const report =
					policy.onFailure === 'reportAll' ||
					(policy.onFailure === 'reportClientErrors' && laterTryWontHelp(attempt));
				if (!report) throw attempt.error;
				failed.push({ kind, fileName: links[index].fileName ?? null, error: attempt.error });
				continue;
			}
			const field = addBinary(binary, policy.fields[kind], attempt.data);
			saved.push({
				kind,
				field,
				fileName: attempt.data.fileName ?? null,
				mimeType: attempt.data.mimeType,
			});
		}
	}
	return { job, binary, saved, failed };
}

/** The action node's policy: the user names the fields; any file that fails ends the item. */
export function actionFilePolicy(fields: Record<FileKind, string>): FilePolicy {
	return { fields, onFailure: 'throw', missingKind: 'throw' };
}

/** Action node: a job's files after checking that its state allows them; `files` lists what was saved. */
export async function downloadJobFiles(
	context: IExecuteFunctions,
	ref: JobRef,
	kinds: FileKind[],
	fields: Record<FileKind, string>,
	itemIndex: number,
	known?: KnownJob,
): Promise<{ job: KnownJob; binary: IBinaryKeyData; files: IDataObject[] }> {
	const job: KnownJob = known ?? { detail: await fetchJob(context, ref, itemIndex) };
	const status = jobStatusOf(job);
	const needsCompletion = kinds.some((kind) => kind !== 'source');
	if (needsCompletion && status !== 'completed') {
		const failureReason = job.detail ? job.detail.failureReason : job.listed.failureReason;
		throw new NodeOperationError(
			context.getNode(),
			`Job ${ref.id} is ${status}; its results exist only once it is completed`,
			{
				itemIndex,
				description: jobAdvice.notCompleted(status, failureReason),
			},
		);
	}
	if (kinds.includes('outputs') && !areDownloadsUnlocked(job)) {
		throw new NodeOperationError(
			context.getNode(),
			`The machine files of job ${ref.id} are locked`,
			{
				itemIndex,
				description: jobAdvice.outputsLocked,
			},
		);
	}
	const result = await streamJobFiles(context, ref, kinds, actionFilePolicy(fields), {
		known: job,
		itemIndex,
	});
	return {
		job: result.job,
		binary: result.binary,
		files: result.saved.map(({ kind, field, fileName, mimeType }) => ({
			kind,
			field,
			fileName,
			mimeType,
		})),
	};
}
