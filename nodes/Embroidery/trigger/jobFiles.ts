import { NodeApiError } from 'n8n-workflow';
import type { IBinaryData, IBinaryKeyData, IDataObject, IPollFunctions } from 'n8n-workflow';

import { downloadSignedFile } from '../transport';
import type { Job, JobListItem } from '../transport';
import type { EndedJob } from './jobItems';
import { fetchJobIfPresent } from './jobRequests';
import { asNodeError } from './nodeErrors';

interface FileLink {
	kind: 'preview' | 'output';
	url: string | null;
	fileName?: string;
	mimeType?: string;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function linkOf(
	kind: FileLink['kind'],
	file: Record<string, unknown> | null | undefined,
	urlKeys: string[],
): FileLink | undefined {
	if (!file) return undefined;
	const url = urlKeys.map((key) => text(file[key])).find((found) => found !== undefined) ?? null;
	return { kind, url, fileName: text(file.name), mimeType: text(file.mimeType) };
}

/** Preview first, then the machine files; a detailed job lists every file, a listing entry one of each. */
function fileLinks(full: Job | undefined, item: JobListItem | undefined): FileLink[] {
	const previewKeys = ['previewUrl', 'downloadUrl', 'url'];
	const outputKeys = ['downloadUrl', 'url'];
	if (full) {
		const previews = (full.artifacts ?? []).map((file) => linkOf('preview', file, previewKeys));
		const outputs = (full.outputs ?? []).map((file) => linkOf('output', file, outputKeys));
		return [...previews, ...outputs].filter((link): link is FileLink => link !== undefined);
	}
	return [linkOf('preview', item?.preview, previewKeys), linkOf('output', item?.output, outputKeys)].filter(
		(link): link is FileLink => link !== undefined,
	);
}

/** A refused or expired signed URL (403, 410) deserves one fresh job fetch; other 4xx are the file's own problem. */
function isRefusedUrl(error: unknown): boolean {
	return error instanceof NodeApiError && (error.httpCode === '403' || error.httpCode === '410');
}

function isClientError(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && /^4\d\d$/.test(error.httpCode ?? '') && error.httpCode !== '429';
}

type DownloadAttempt = { data: IBinaryData } | { error: unknown };

async function streamToBinary(context: IPollFunctions, link: FileLink): Promise<DownloadAttempt> {
	if (link.url === null) {
		return { error: new NodeApiError(context.getNode(), { message: 'The service gave no signed URL' }, { httpCode: '403' }) };
	}
	try {
		const file = await downloadSignedFile.call(context, link.url);
		const data = await context.helpers.prepareBinaryData(
			file.stream,
			file.fileName ?? link.fileName ?? link.kind,
			file.mimeType ?? link.mimeType ?? 'application/octet-stream',
		);
		return { data };
	} catch (error) {
		return { error };
	}
}

function binaryKey(binary: IBinaryKeyData, kind: FileLink['kind']): string {
	let key: string = kind;
	for (let n = 2; key in binary; n++) key = `${kind}_${n}`;
	return key;
}

/**
 * Streams the preview and, when unlocked, the machine files into binary fields. A file the service
 * refuses for good is reported on the item; a network or server failure is thrown so the poll is repeated,
 * unless `reportEveryFailure` (the job's files already failed a poll), so one broken file cannot stall the trigger.
 */
export async function downloadJobFiles(
	context: IPollFunctions,
	ended: EndedJob,
	full: Job | undefined,
	json: IDataObject,
	reportEveryFailure = false,
): Promise<IBinaryKeyData> {
	const binary: IBinaryKeyData = {};
	const files: IDataObject[] = [];
	const problems: IDataObject[] = [];
	let links = fileLinks(full, ended.listed?.item);
	// Files are addressed by kind and position so that links from a refetched job replace the stale ones.
	const plan = links.map((link, index) => ({
		kind: link.kind,
		nth: links.slice(0, index).filter((earlier) => earlier.kind === link.kind).length,
	}));
	const linkFor = (kind: FileLink['kind'], nth: number) => links.filter((link) => link.kind === kind)[nth];
	let refreshed = false;
	for (const { kind, nth } of plan) {
		const link = linkFor(kind, nth);
		if (!link || (kind === 'output' && link.url === null)) continue;
		let attempt = await streamToBinary(context, link);
		if ('error' in attempt && !refreshed && isRefusedUrl(attempt.error)) {
			refreshed = true;
			const fresh = await fetchJobIfPresent(context, ended.job);
			if (fresh) links = fileLinks(fresh.job, undefined);
			const freshLink = linkFor(kind, nth);
			if (fresh && freshLink) attempt = await streamToBinary(context, freshLink);
		}
		if ('error' in attempt) {
			if (!isClientError(attempt.error) && !reportEveryFailure) throw asNodeError(context.getNode(), attempt.error);
			problems.push({ kind, fileName: link.fileName ?? null, error: asNodeError(context.getNode(), attempt.error).message });
			continue;
		}
		const key = binaryKey(binary, kind);
		binary[key] = attempt.data;
		files.push({ kind, binaryField: key, fileName: attempt.data.fileName ?? null, mimeType: attempt.data.mimeType });
	}
	json.files = files;
	if (problems.length > 0) json.fileErrors = problems;
	return binary;
}
