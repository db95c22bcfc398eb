import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import {
	fetchSourceUrl,
	fileNameFromDisposition,
	headerOf,
	fileNameFromUrl,
	safeFileName,
	shownUrl,
	sourceUrlAdvice,
} from '../../transport';
import type { Workflow } from '../../transport';
import { artworkExtensions, artworkTypeOf } from '../../transport/artworkTypes';
import { formatMegabytes, limits } from '../../transport/serviceLimits';
import type { SourceFile } from './checks';

/** A source fetched from a URL; `content` holds its bytes when n8n keeps binaries in memory. */
export interface UrlSourceFile extends SourceFile {
	sourceUrl: string;
	content?: Buffer;
}

const artworkExtensionOfMime: Record<string, string> = {
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/svg+xml': 'svg',
	'image/webp': 'webp',
};

/**
 * Content types no embroidery machine file is served as: web pages, data documents and media. A link
 * to such a thing is a page about the file or an error page, not the file itself. Machine files have no
 * registered type, so application/octet-stream, text/plain (what hosts that know no type of theirs
 * often send) and any other type pass; the service reads the content.
 */
function notAMachineFileType(mimeType: string): boolean {
	return (
		/^text\/(?!plain$)/.test(mimeType) ||
		/^(image|audio|video|font)\//.test(mimeType) ||
		/^application\/(json|xml|xhtml\+xml|javascript|ecmascript|pdf|x-www-form-urlencoded)$/.test(
			mimeType,
		) ||
		/\+(json|xml)$/.test(mimeType)
	);
}

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function problem(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), message, { itemIndex, description });
}

/** The URL of the Source URL field when it is a complete http(s) URL; a clear error otherwise. */
export function parseSourceUrl(context: IExecuteFunctions, itemIndex: number, value: unknown): URL {
	const text = typeof value === 'string' ? value.trim() : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url) {
		throw problem(
			context,
			itemIndex,
			`'Source URL' is not a complete URL: "${text.slice(0, 200)}"`,
			sourceUrlAdvice.incomplete,
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw problem(
			context,
			itemIndex,
			`'Source URL' uses ${url.protocol.replace(/:$/, '')}; only http and https links can be fetched`,
			sourceUrlAdvice.notHttp,
		);
	}
	return url;
}

/**
 * Fetches a source file from a URL through transport/sourceUrl.ts (no credential, public addresses only
 * unless allowed, bounded in time and size). The type is checked from the headers before the body is read,
 * and the body streams into n8n's binary store, from which the upload streams it like any stored source.
 */
export async function fetchUrlSource(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	workflow: Workflow,
): Promise<UrlSourceFile> {
	const url = parseSourceUrl(context, itemIndex, value);
	const where = `the file at ${shownUrl(url)}`;
	const maxBytes = workflow === 'digitising' ? limits.artworkMaxBytes : limits.conversionMaxBytes;
	const tooLarge = (size: string) =>
		problem(
			context,
			itemIndex,
			`${capitalised(where)} is ${size}; ${workflow} accepts at most ${formatMegabytes(maxBytes)} per file`,
			sourceUrlAdvice.tooLarge,
		);
	const response = await fetchSourceUrl(context, {
		url,
		itemIndex,
		allowPrivateNetworks:
			context.getNodeParameter('options.allowPrivateNetworks', itemIndex, false) === true,
		maxBytes,
		tooLarge: (announced) =>
			tooLarge(
				announced === undefined
					? `larger than ${formatMegabytes(maxBytes)} (the download was stopped there)`
					: formatMegabytes(announced),
			),
	});
	const body = response.body;
	try {
		if (response.statusCode < 200 || response.statusCode >= 300) {
			throw problem(
				context,
				itemIndex,
				`Fetching ${where} answered HTTP ${response.statusCode}`,
				sourceUrlAdvice.notTheFile,
			);
		}
		const mimeType =
			headerOf(response.headers, 'content-type')?.split(';')[0].trim().toLowerCase() ||
			'application/octet-stream';
		let fileName =
			fileNameFromDisposition(headerOf(response.headers, 'content-disposition')) ??
			safeFileName(fileNameFromUrl(response.servedFrom, '')) ??
			'source';
		if (workflow === 'conversion' && notAMachineFileType(mimeType)) {
			throw problem(
				context,
				itemIndex,
				`${capitalised(where)} is served as ${mimeType}, not as an embroidery machine file conversion accepts`,
				mimeType.startsWith('image/')
					? sourceUrlAdvice.imageForConversion
					: sourceUrlAdvice.pageForConversion,
			);
		}
		if (workflow === 'digitising') {
			const fromMime = artworkExtensionOfMime[mimeType];
			if (fromMime && artworkTypeOf(fileName, undefined) === null)
				fileName = `${fileName}.${fromMime}`;
			if (artworkTypeOf(fileName, mimeType) === null) {
				throw problem(
					context,
					itemIndex,
					`${capitalised(where)} ("${fileName}", ${mimeType}) is not artwork digitising ` +
						`accepts: ${artworkExtensions.join(', ')}`,
					sourceUrlAdvice.notArtwork,
				);
			}
		}
		// The body streams into n8n's binary store (filesystem, database or S3 mode keep it there; only the
		// memory mode holds it); the transport ends it at the size ceiling, a stall, the time limit or Stop.
		let stored: IBinaryData;
		try {
			stored = await context.helpers.prepareBinaryData(body.stream, fileName, mimeType);
		} catch (error) {
			throw (
				body.failure() ??
				problem(
					context,
					itemIndex,
					`Could not read ${where}: ${(error as Error).message}`,
					sourceUrlAdvice.unreachable,
				)
			);
		}
		// Some stores finish without the pipe's error: a limit that ended the stream still wins.
		const failure = body.failure();
		if (failure) throw failure;
		const bytes = body.bytes();
		if (bytes === 0)
			throw problem(context, itemIndex, `${capitalised(where)} is empty`, sourceUrlAdvice.empty);
		return {
			itemIndex,
			propertyName: 'url',
			fileName,
			mimeType,
			bytes,
			binaryId: stored.id,
			sourceUrl: url.href,
			content: stored.id ? undefined : Buffer.from(stored.data, 'base64'),
		};
	} finally {
		body.stream.destroy();
	}
}
