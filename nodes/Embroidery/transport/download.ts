import { NodeOperationError } from 'n8n-workflow';

import { credentialsOf } from './context';
import type { EmbroideryContext, FileStream } from './context';
import { fileNameFromDisposition } from './fileNames';
import { defaultRetryPolicy } from './retryPolicy';
import { routes } from './routes';
import { headerOf } from './responseBody';
import { send } from './send';
import { limitedStream } from './streamLimits';
import type { ByteStream } from './streamLimits';
import { timeLimits } from './timeLimits';

export interface DownloadedFile {
	stream: FileStream;
	fileName?: string;
	mimeType?: string;
	/** Bytes announced by the service, when it says. */
	size?: number;
}

/**
 * Streams a complete signed file URL, used exactly as the service gave it. The API key is only
 * sent to the credential's own origin, never to another one a URL or a redirect points at.
 */
export async function downloadSignedFile(
	this: EmbroideryContext,
	signedUrl: string,
	itemIndex?: number,
): Promise<DownloadedFile> {
	const { apiKey, baseUrl } = await credentialsOf(this);
	let target: URL;
	try {
		target = new URL(signedUrl);
	} catch {
		throw new NodeOperationError(this.getNode(), `"${signedUrl}" is not a complete URL`, {
			itemIndex,
			description: 'Use the downloadUrl or previewUrl of a job exactly as the service returned it.',
		});
	}
	const origin = new URL(baseUrl).origin;
	if (target.origin !== origin) {
		throw new NodeOperationError(
			this.getNode(),
			`The URL's host ${target.origin} is not the service's host ${origin}`,
			{
				itemIndex,
				description:
					'Signed file URLs come from the same service as the credential; the node will not ' +
					'send your API key anywhere else.',
			},
		);
	}
	const stopRequest = new AbortController();
	const response = await send(
		this,
		{
			method: 'GET',
			url: signedUrl,
			encoding: 'stream',
			headers: { Accept: '*/*' },
			timeout: timeLimits.fileIdleMs,
		},
		{ ...routes.signedFile(target), itemIndex },
		{
			secrets: [apiKey, target.searchParams.get('signature') ?? ''],
			policy: defaultRetryPolicy,
			origin,
			abortSignal: stopRequest.signal,
		},
	);
	const length = Number(headerOf(response.headers, 'content-length'));
	return {
		stream: limitedStream(
			response.body as ByteStream,
			{
				idle: {
					ms: timeLimits.fileIdleMs,
					error: () =>
						new Error(
							`No data arrived for ${Math.round(timeLimits.fileIdleMs / 1000)} s while downloading ${target.pathname}`,
						),
				},
			},
			() => stopRequest.abort(),
		).stream,
		fileName: fileNameFromDisposition(headerOf(response.headers, 'content-disposition')),
		mimeType: headerOf(response.headers, 'content-type')?.split(';')[0].trim(),
		size: Number.isFinite(length) && length > 0 ? length : undefined,
	};
}
