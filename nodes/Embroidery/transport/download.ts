import { NodeOperationError } from 'n8n-workflow';

import { clock } from './clock';
import { credentialsOf } from './context';
import type { EmbroideryContext, FileStream } from './context';
import { defaultRetryPolicy } from './retryPolicy';
import { routes } from './routes';
import { headerOf, send } from './send';
import { timeLimits } from './timeLimits';

export interface DownloadedFile {
	stream: FileStream;
	fileName?: string;
	mimeType?: string;
	/** Bytes announced by the service, when it says. */
	size?: number;
}

type ByteStream = Exclude<FileStream, Buffer>;

/** C0 and C1 controls, DEL, and the bidi controls (U+202A-U+202E, U+2066-U+2069) that can make an `.exe` show as a `.png`. */
function isUnsafeChar(char: string): boolean {
	const code = char.codePointAt(0) ?? 0;
	return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/**
 * A file name the service suggests, reduced to its last path segment without control characters,
 * so it can never point outside the binary store, break a header or disguise its extension; undefined
 * when nothing is left.
 */
export function safeFileName(name: string | undefined): string | undefined {
	if (name === undefined) return undefined;
	const lastSegment = name.split(/[/\\]/).pop() ?? '';
	const clean = [...lastSegment].filter((char) => !isUnsafeChar(char)).join('').trim();
	return clean === '' || /^\.+$/.test(clean) ? undefined : clean;
}

function fileNameFromDisposition(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const encoded = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
	if (encoded) {
		try {
			return safeFileName(decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, '')));
		} catch {
			return undefined;
		}
	}
	const plain = /filename="?([^";]+)"?/i.exec(disposition);
	return safeFileName(plain?.[1]);
}

/**
 * Passes the bytes on and fails the stream when none arrive for `idleMs`, however long the whole
 * file takes; `stop` ends the request underneath (a stalled socket would keep the stream open). The watch ends with the stream.
 */
function failWhenIdle(source: ByteStream, idleMs: number, fileLabel: string, stop: () => void): ByteStream {
	let lastByteAt = clock.now();
	const watched = source.map((chunk: unknown) => {
		lastByteAt = clock.now();
		return chunk;
	});
	const ended = new AbortController();
	watched.once('close', () => ended.abort());
	const watch = async () => {
		for (let idle = 0; idle < idleMs; idle = clock.now() - lastByteAt) await clock.sleep(idleMs - idle, ended.signal);
		watched.destroy(new Error(`No data arrived for ${Math.round(idleMs / 1000)} s while downloading ${fileLabel}`));
		stop();
	};
	watch().catch(() => undefined);
	return watched;
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
					'Signed file URLs come from the same service as the credential; the node will not send your API key anywhere else.',
			},
		);
	}
	const stopRequest = new AbortController();
	const response = await send(
		this,
		{ method: 'GET', url: signedUrl, encoding: 'stream', headers: { Accept: '*/*' }, timeout: timeLimits.fileIdleMs },
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
		stream: failWhenIdle(response.body as ByteStream, timeLimits.fileIdleMs, target.pathname, () => stopRequest.abort()),
		fileName: fileNameFromDisposition(headerOf(response.headers, 'content-disposition')),
		mimeType: headerOf(response.headers, 'content-type')?.split(';')[0].trim(),
		size: Number.isFinite(length) && length > 0 ? length : undefined,
	};
}
