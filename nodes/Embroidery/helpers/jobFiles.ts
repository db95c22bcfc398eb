import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { nodeErrorOf } from '../transport';
import type { Job, JobListItem } from '../transport';
import { addBinary, downloadToBinary } from './binary';
import { fetchJob, seenJobStatus, seenJobUnlocked } from './jobs';
import type { JobRef, SeenJob } from './jobs';

export type FileKind = 'outputs' | 'preview' | 'source';

export interface FileLink {
	url: string | null;
	fileName?: string;
	mimeType?: string;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function linkOf(file: IDataObject, urlKeys: string[]): FileLink {
	const url = urlKeys.map((key) => text(file[key])).find((found) => found !== undefined) ?? null;
	return { url, fileName: text(file.name), mimeType: text(file.mimeType) };
}

/** The signed links of one kind of file a detailed job carries (outputs and artifacts are open-ended). */
function detailLinksOf(job: Job, kind: FileKind): FileLink[] {
	if (kind === 'source') return job.source ? [linkOf(job.source as IDataObject, ['downloadUrl'])] : [];
	if (kind === 'outputs') {
		return (job.outputs ?? []).map((file) => linkOf(file as IDataObject, ['downloadUrl', 'url']));
	}
	const artifacts = (job.artifacts ?? []).map((file) =>
		linkOf(file as IDataObject, ['previewUrl', 'downloadUrl', 'url']),
	);
	return artifacts.filter((link) => link.url !== null);
}

/** The signed links of a jobs-listing entry: one preview, one output and the source, each a PrivateFile. */
function listedLinksOf(item: JobListItem, kind: FileKind): FileLink[] {
	if (kind === 'source') return item.source ? [linkOf(item.source as IDataObject, ['downloadUrl'])] : [];
	if (kind === 'outputs') return item.output ? [linkOf(item.output as IDataObject, ['downloadUrl'])] : [];
	const preview = item.preview ? linkOf(item.preview as IDataObject, ['previewUrl', 'downloadUrl']) : undefined;
	return preview && preview.url !== null ? [preview] : [];
}

export function fileLinksOf(seen: SeenJob, kind: FileKind): FileLink[] {
	return seen.detail ? detailLinksOf(seen.detail, kind) : listedLinksOf(seen.listed, kind);
}

/** A signed URL the service refused with 403 may simply have expired: worth one fresh job fetch. */
function mayBeExpiredUrl(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '403';
}

/** A download, or the refusal that fresh URLs may cure (no URL given, or a 403 for the signed one). */
async function tryDownload(
	context: IExecuteFunctions,
	link: FileLink,
	itemIndex: number,
): Promise<{ data: IBinaryData } | { refused: unknown }> {
	if (!link.url) {
		return {
			refused: new NodeOperationError(context.getNode(), 'The service gave no signed URL for this file', { itemIndex }),
		};
	}
	try {
		return { data: await downloadToBinary(context, link.url, itemIndex, link) };
	} catch (error) {
		if (mayBeExpiredUrl(error)) return { refused: error };
		throw nodeErrorOf(context.getNode(), error, itemIndex);
	}
}

/** A link taken from a job fetched moments ago was refused: expiry is ruled out, so say what else it can be. */
function refusedAfterRefetch(context: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (!(error instanceof NodeApiError) || error.httpCode !== '403') return nodeErrorOf(context.getNode(), error, itemIndex);
	return new NodeApiError(
		context.getNode(),
		{ message: error.message, httpCode: '403' },
		{
			message: error.message,
			description:
				'The node already fetched the job again for a fresh link, and that link was refused too. A locked machine file needs Job > Unlock first; files of another account are never served; otherwise try again later.',
			httpCode: '403',
			itemIndex,
		},
	);
}

export interface JobFileFields {
	outputs: string;
	preview: string;
	source: string;
}

/**
 * Downloads a job's files as binary fields, from the signed URLs of the job as last seen (fetched now
 * when not given). A refused URL leads to exactly one refetch of the job; the node never builds a URL.
 * Returns the job as last fetched, with the URLs actually used.
 */
export async function downloadJobFiles(
	context: IExecuteFunctions,
	ref: JobRef,
	kinds: FileKind[],
	fields: JobFileFields,
	itemIndex: number,
	known?: SeenJob,
): Promise<{ job: SeenJob; binary: IBinaryKeyData; files: IDataObject[] }> {
	let job: SeenJob = known ?? { detail: await fetchJob(context, ref, itemIndex) };
	let refetched = false;
	const status = seenJobStatus(job);
	const needsCompletion = kinds.some((kind) => kind !== 'source');
	if (needsCompletion && status !== 'completed') {
		const failureReason = job.detail ? job.detail.failureReason : job.listed.failureReason;
		throw new NodeOperationError(context.getNode(), `Job ${ref.id} is ${status}; its results exist only once it is completed`, {
			itemIndex,
			description:
				status === 'failed'
					? `It failed: ${failureReason ?? 'no reason given'}. Use Job > Retry, then wait for it.`
					: 'Use Job > Wait for Completion before downloading.',
		});
	}
	if (kinds.includes('outputs') && !seenJobUnlocked(job)) {
		throw new NodeOperationError(context.getNode(), `The machine files of job ${ref.id} are locked`, {
			itemIndex,
			description:
				'Run Job > Unlock first (it spends a subscription entitlement or credits), or download only the preview, which is watermarked while locked.',
		});
	}

	const binary: IBinaryKeyData = {};
	const files: IDataObject[] = [];
	for (const kind of kinds) {
		const links = fileLinksOf(job, kind);
		if (links.length === 0) {
			throw new NodeOperationError(context.getNode(), `Job ${ref.id} has no ${kind === 'outputs' ? 'output files' : kind}`, {
				itemIndex,
			});
		}
		for (let index = 0; index < links.length; index++) {
			// After a refetch, the later files of this kind come from the fresh job too.
			let outcome = await tryDownload(context, fileLinksOf(job, kind)[index] ?? { url: null }, itemIndex);
			if ('refused' in outcome && !refetched) {
				refetched = true;
				job = { detail: await fetchJob(context, ref, itemIndex) };
				outcome = await tryDownload(context, fileLinksOf(job, kind)[index] ?? { url: null }, itemIndex);
			}
			if ('refused' in outcome) throw refusedAfterRefetch(context, outcome.refused, itemIndex);
			const field = addBinary(binary, fields[kind], outcome.data);
			files.push({ kind, field, fileName: outcome.data.fileName ?? null, mimeType: outcome.data.mimeType });
		}
	}
	return { job, binary, files };
}
