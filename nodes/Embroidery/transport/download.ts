import { NodeOperationError } from 'n8n-workflow';

import { clock } from './clock';
import { cancelSignalOf, credentialsOf } from './context';
import type { EmbroideryContext, FileStream } from './context';
import { fileNameFromDisposition } from './fileNames';
import { downloadCutOffError, nodeErrorOf } from './errors';
import { defaultRetryPolicy, failureDelayMs } from './retryPolicy';
import { routes } from './routes';
import { signedUrlAdvice } from './nextSteps';
import { headerOf } from './responseBody';
import { send } from './send';
import type { Tries } from './send';
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
 * Streams a complete signed file URL, used exactly as the service gave it, into `consume` (n8n's binary
 * store). The API key is only sent to the credential's own origin, never to another one a URL or a redirect
 * points at. A connection lost midway starts the file again, within the tries of any GET: `consume` gets
 * each try's stream from its first byte, and a cut-off stream never ends as a whole file.
 */
export async function downloadSignedFile<T>(
	context: EmbroideryContext,
	signedUrl: string,
	itemIndex: number | undefined,
	consume: (file: DownloadedFile) => Promise<T>,
): Promise<T> {
	const { apiKey, baseUrl } = await credentialsOf(context);
	let target: URL;
	try {
		target = new URL(signedUrl);
	} catch {
		throw new NodeOperationError(context.getNode(), `"${signedUrl}" is not a complete URL`, {
			itemIndex,
			description: signedUrlAdvice.notComplete,
		});
	}
	const origin = new URL(baseUrl).origin;
	if (target.origin !== origin) {
		throw new NodeOperationError(
			context.getNode(),
			`The URL's host ${target.origin} is not the service's host ${origin}`,
			{
				itemIndex,
				description: signedUrlAdvice.foreignHost,
			},
		);
	}
	const route = { ...routes.signedFile(target), itemIndex };
	const secrets = [apiKey, target.searchParams.get('signature') ?? ''];
	const cancel = cancelSignalOf(context);
	const tries: Tries = { refused: 0, failed: 0 };
	for (;;) {
		const stopRequest = new AbortController();
		const startedAt = clock.now();
		const response = await send(
			context,
			{
				method: 'GET',
				url: signedUrl,
				encoding: 'stream',
				headers: { Accept: '*/*' },
				timeout: timeLimits.fileIdleMs,
			},
			route,
			{
				secrets,
				policy: defaultRetryPolicy,
				origin,
				abortSignal: stopRequest.signal,
				answerMs: timeLimits.fileIdleMs,
				tries,
			},
		);
		const body = response.body as ByteStream;
		let lost: Error | undefined;
		body.once('error', (error: Error) => {
			lost = error;
		});
		const seconds = (ms: number) => Math.round(ms / 1000);
		const limited = limitedStream(
			body,
			{
				idle: {
					ms: timeLimits.fileIdleMs,
					error: () =>
						new Error(
							`No data arrived for ${seconds(timeLimits.fileIdleMs)} s while downloading ${target.pathname}`,
						),
				},
				total: {
					ms: timeLimits.fileTotalMs,
					startedAt,
					error: () =>
						new Error(
							`The download of ${target.pathname} took longer than ${seconds(timeLimits.fileTotalMs)} s`,
						),
				},
			},
			() => stopRequest.abort(),
		);
		const length = Number(headerOf(response.headers, 'content-length'));
		try {
			return await consume({
				stream: limited.stream,
				fileName: fileNameFromDisposition(headerOf(response.headers, 'content-disposition')),
				mimeType: headerOf(response.headers, 'content-type')?.split(';')[0].trim(),
				size: Number.isFinite(length) && length > 0 ? length : undefined,
			});
		} catch (error) {
			// Only a connection lost underneath starts the file again; a limit, Stop or the store's own error ends it.
			if (lost === undefined || limited.failure() || cancel?.aborted)
				throw nodeErrorOf(context.getNode(), error, itemIndex);
			tries.failed++;
			const delay = failureDelayMs('networkError', tries, 0, defaultRetryPolicy);
			const attempts = tries.failed + tries.refused;
			if (delay === null)
				throw downloadCutOffError(context.getNode(), lost, { ...route, attempts }, secrets);
			context.logger.debug(
				`Embroidery download ${target.pathname}: connection lost midway, try ${attempts + 1} in ${delay} ms`,
			);
			await clock.sleep(delay, cancel);
		}
	}
}
