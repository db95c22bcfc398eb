import { NodeOperationError } from 'n8n-workflow';

import { credentialsOf } from './context';
import type { EmbroideryContext, FileStream } from './context';
import { defaultRetryPolicy } from './retryPolicy';
import { headerOf, send } from './send';

export interface DownloadedFile {
	stream: FileStream;
	fileName?: string;
	mimeType?: string;
	/** Bytes announced by the service, when it says. */
	size?: number;
}

function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const encoded = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
	if (encoded) {
		try {
			return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''));
		} catch {
			return undefined;
		}
	}
	const plain = /filename="?([^";]+)"?/i.exec(disposition);
	return plain?.[1];
}

/**
 * Streams a complete signed file URL, used exactly as the service gave it. The API key is only
 * sent to the credential's own host, never to another one a URL might point at.
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
	if (target.origin !== new URL(baseUrl).origin) {
		throw new NodeOperationError(
			this.getNode(),
			`The URL's host ${target.origin} is not the service's host ${new URL(baseUrl).origin}`,
			{
				itemIndex,
				description:
					'Signed file URLs come from the same service as the credential; the node will not send your API key anywhere else.',
			},
		);
	}
	const response = await send(
		this,
		{ method: 'GET', url: signedUrl, encoding: 'stream', headers: { Accept: '*/*' } },
		{ method: 'GET', path: target.pathname, itemIndex },
		[apiKey, target.searchParams.get('signature') ?? ''],
		defaultRetryPolicy,
	);
	const length = Number(headerOf(response.headers, 'content-length'));
	return {
		stream: response.body as FileStream,
		fileName: fileNameFromDisposition(headerOf(response.headers, 'content-disposition')),
		mimeType: headerOf(response.headers, 'content-type')?.split(';')[0].trim(),
		size: Number.isFinite(length) && length > 0 ? length : undefined,
	};
}
