import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { nodeErrorOf } from '../transport';
import type { Job } from '../transport';
import { addBinary, downloadToBinary } from './binary';
import { fetchJob } from './jobs';
import type { JobRef } from './jobs';

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
export function fileLinksOf(job: Job, kind: FileKind): FileLink[] {
	if (kind === 'source') return job.source ? [linkOf(job.source as IDataObject, ['downloadUrl'])] : [];
	if (kind === 'outputs') {
		return (job.outputs ?? []).map((file) => linkOf(file as IDataObject, ['downloadUrl', 'url']));
	}
	const artifacts = (job.artifacts ?? []).map((file) =>
		linkOf(file as IDataObject, ['previewUrl', 'downloadUrl', 'url']),
	);
	return artifacts.filter((link) => link.url !== null);
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

export interface JobFileFields {
	outputs: string;
	preview: string;
	source: string;
}

/**
 * Downloads a job's files as binary fields, from the fresh signed URLs of a job just fetched.
 * A refused URL leads to exactly one refetch of the job; the node never builds a URL itself.
 */
export async function downloadJobFiles(
	context: IExecuteFunctions,
	ref: JobRef,
	kinds: FileKind[],
	fields: JobFileFields,
	itemIndex: number,
	knownJob?: Job,
): Promise<{ job: Job; binary: IBinaryKeyData; files: IDataObject[] }> {
	let job = knownJob ?? (await fetchJob(context, ref, itemIndex));
	let refetched = false;
	const needsCompletion = kinds.some((kind) => kind !== 'source');
	if (needsCompletion && job.status !== 'completed') {
		throw new NodeOperationError(context.getNode(), `Job ${ref.id} is ${job.status}; its results exist only once it is completed`, {
			itemIndex,
			description:
				job.status === 'failed'
					? `It failed: ${job.failureReason ?? 'no reason given'}. Use Job > Retry, then wait for it.`
					: 'Use Job > Wait for Completion before downloading.',
		});
	}
	if (kinds.includes('outputs') && !job.downloadsUnlocked) {
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
			let outcome = await tryDownload(context, links[index], itemIndex);
			if ('refused' in outcome && !refetched) {
				refetched = true;
				job = await fetchJob(context, ref, itemIndex);
				outcome = await tryDownload(context, fileLinksOf(job, kind)[index] ?? { url: null }, itemIndex);
			}
			if ('refused' in outcome) throw nodeErrorOf(context.getNode(), outcome.refused, itemIndex);
			const field = addBinary(binary, fields[kind], outcome.data);
			files.push({ kind, field, fileName: outcome.data.fileName ?? null, mimeType: outcome.data.mimeType });
		}
	}
	return { job, binary, files };
}
