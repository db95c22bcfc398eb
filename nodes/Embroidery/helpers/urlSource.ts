import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import type { Workflow } from '../transport';
import { fileNameFromUrl } from './binary';
import { artworkExtensions, artworkTypeOf, formatMegabytes, limits } from './limits';
import type { SourceFile } from './validation';

/** A source fetched from a URL; `content` holds its bytes when n8n keeps binaries in memory. */
export interface UrlSourceFile extends SourceFile {
	sourceUrl: string;
	content?: Buffer;
}

/** What n8n's helper gives for `encoding: 'stream'`: Node's response stream. */
interface ResponseStream extends AsyncIterable<Uint8Array> {
	destroy?: () => void;
	/** Node's Readable `map`: a stream of what `fn` returns for each chunk; a throw ends it with that error. */
	map?: (fn: (chunk: Uint8Array) => Uint8Array) => ResponseStream;
}

interface StreamedResponse {
	body: ResponseStream;
	headers: Record<string, unknown>;
	statusCode: number;
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
		/^application\/(json|xml|xhtml\+xml|javascript|ecmascript|pdf|x-www-form-urlencoded)$/.test(mimeType) ||
		/\+(json|xml)$/.test(mimeType)
	);
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The whole body in memory, each chunk passed through `each` (which may throw to stop). */
async function collected(body: ResponseStream, each: (chunk: Uint8Array) => Uint8Array): Promise<Buffer> {
	const chunks: Uint8Array[] = [];
	for await (const chunk of body) chunks.push(each(chunk));
	return Buffer.concat(chunks);
}

/** The URL without its query (signed links carry tokens there), for messages. */
function shownUrl(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

/** A file name that is one plain path segment: no folders, no control characters, at most 200 characters. */
export function safeFileName(name: string | undefined): string | undefined {
	const last = (name ?? '').split(/[/\\]/).pop() ?? '';
	// Control characters (C0 and DEL) have no place in a file name n8n shows and saves.
	const cleaned = [...last].filter((char) => char.charCodeAt(0) >= 32 && char.charCodeAt(0) !== 127).join('').trim();
	if (cleaned === '' || cleaned === '.' || cleaned === '..') return undefined;
	return cleaned.slice(-200);
}

/** filename* (RFC 5987) before filename, as browsers read Content-Disposition. */
function dispositionFileName(disposition: string | undefined): string | undefined {
	if (!disposition) return undefined;
	const encoded = /filename\*\s*=\s*(?:[\w-]+'[^']*')?("?)([^";]+)\1/i.exec(disposition);
	if (encoded) {
		try {
			return decodeURIComponent(encoded[2].trim());
		} catch {
			// A malformed encoding falls back to the plain parameter.
		}
	}
	return /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition)?.slice(1).find(Boolean)?.trim();
}

function problem(context: IExecuteFunctions, itemIndex: number, message: string, description: string): NodeOperationError {
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
			`Source URL of item ${itemIndex} is not a complete URL: "${text.slice(0, 200)}"`,
			'Give a link to the file starting with http:// or https://, for example https://example.com/designs/logo.png.',
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw problem(
			context,
			itemIndex,
			`Source URL of item ${itemIndex} uses ${url.protocol.replace(/:$/, '')}; only http and https links can be fetched`,
			'Give a link to the file starting with http:// or https://.',
		);
	}
	return url;
}

const maxRedirects = 5;

/**
 * GETs the URL with n8n's plain HTTP helper, following redirects here rather than in the client so
 * each hop is checked to stay on http(s) and the link that served the file is known (it names it).
 */
async function followToFile(
	context: IExecuteFunctions,
	itemIndex: number,
	start: URL,
	where: string,
): Promise<StreamedResponse & { url: URL }> {
	let url = start;
	for (let hop = 0; ; hop++) {
		let response: StreamedResponse;
		try {
			response = (await context.helpers.httpRequest({
				method: 'GET',
				url: url.href,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: 60_000,
				abortSignal: context.getExecutionCancelSignal?.(),
				headers: { Accept: '*/*' },
			})) as StreamedResponse;
		} catch (error) {
			throw problem(
				context,
				itemIndex,
				`Could not fetch ${where}: ${(error as Error).message}`,
				'Check that the link is reachable from the n8n server.',
			);
		}
		const location = header(response.headers, 'location');
		if (response.statusCode < 300 || response.statusCode >= 400 || location === undefined) return { ...response, url };
		response.body.destroy?.();
		if (hop + 1 >= maxRedirects) {
			throw problem(context, itemIndex, `${capitalised(where)} redirects more than ${maxRedirects} times`, 'Link the file itself.');
		}
		const next = new URL(location, url);
		if (next.protocol !== 'http:' && next.protocol !== 'https:') {
			throw problem(
				context,
				itemIndex,
				`${capitalised(where)} redirects to a ${next.protocol.replace(/:$/, '')} link; only http and https are followed`,
				'Link the file itself.',
			);
		}
		url = next;
	}
}

/**
 * Fetches a source file from a URL with n8n's plain HTTP helper: no credential, so the API key is never
 * sent there (nor to any host a redirect leads to). The type is checked from the headers before the
 * body is read, the size limit while it arrives (the download stops at the limit), and the body streams
 * into n8n's binary store, from which the upload streams it like any stored source.
 */
export async function fetchUrlSource(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	workflow: Workflow,
): Promise<UrlSourceFile> {
	const url = parseSourceUrl(context, itemIndex, value);
	const where = `the file at ${shownUrl(url)} (item ${itemIndex})`;
	const maxBytes = workflow === 'digitising' ? limits.artworkMaxBytes : limits.conversionMaxBytes;
	const tooLarge = (size: string) =>
		problem(
			context,
			itemIndex,
			`${capitalised(where)} is ${size}; ${workflow} accepts at most ${formatMegabytes(maxBytes)} per file`,
			'Link a smaller file.',
		);
	const response = await followToFile(context, itemIndex, url, where);
	const body = response.body;
	try {
		if (response.statusCode < 200 || response.statusCode >= 300) {
			throw problem(
				context,
				itemIndex,
				`Fetching ${where} answered HTTP ${response.statusCode}`,
				'The link must lead to the file itself and be readable without logging in.',
			);
		}
		const mimeType = header(response.headers, 'content-type')?.split(';')[0].trim().toLowerCase() || 'application/octet-stream';
		const servedFrom = response.url.href;
		let fileName =
			safeFileName(dispositionFileName(header(response.headers, 'content-disposition'))) ??
			safeFileName(fileNameFromUrl(servedFrom, '')) ??
			'source';
		if (workflow === 'conversion' && notAMachineFileType(mimeType)) {
			throw problem(
				context,
				itemIndex,
				`${capitalised(where)} is served as ${mimeType}, not as an embroidery machine file conversion accepts`,
				mimeType.startsWith('image/')
					? 'Link the machine file itself (DST, PES, JEF, EXP, VP3, ...), or choose the digitising workflow to turn artwork into stitches.'
					: 'Link the machine file itself (DST, PES, JEF, EXP, VP3, ...), not a web page or document about it: the link must download the file.',
			);
		}
		if (workflow === 'digitising') {
			const fromMime = artworkExtensionOfMime[mimeType];
			if (fromMime && artworkTypeOf(fileName, undefined) === null) fileName = `${fileName}.${fromMime}`;
			if (artworkTypeOf(fileName, mimeType) === null) {
				throw problem(
					context,
					itemIndex,
					`${capitalised(where)} ("${fileName}", ${mimeType}) is not artwork digitising accepts: ${artworkExtensions.join(', ')}`,
					'Link a JPG, PNG, SVG or WebP image, or use the conversion workflow for machine files.',
				);
			}
		}
		const announced = Number(header(response.headers, 'content-length'));
		if (Number.isFinite(announced) && announced > maxBytes) throw tooLarge(formatMegabytes(announced));

		let bytes = 0;
		let overLimit: NodeOperationError | undefined;
		const counted = (chunk: Uint8Array) => {
			bytes += chunk.length;
			if (bytes > maxBytes) {
				overLimit = tooLarge(`larger than ${formatMegabytes(maxBytes)} (the download was stopped there)`);
				throw overLimit;
			}
			return chunk;
		};
		// The body streams into n8n's binary store (filesystem, database or S3 mode keep it there; only the
		// memory mode holds it), counted on the way so the download stops at the limit.
		let stored: IBinaryData;
		try {
			stored = body.map
				? await context.helpers.prepareBinaryData(
						body.map(counted) as unknown as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0],
						fileName,
						mimeType,
					)
				: await context.helpers.prepareBinaryData(await collected(body, counted), fileName, mimeType);
		} catch (error) {
			throw (
				overLimit ??
				problem(context, itemIndex, `Could not read ${where}: ${(error as Error).message}`, 'Check that the link is reachable from the n8n server.')
			);
		}
		if (bytes === 0) throw problem(context, itemIndex, `${capitalised(where)} is empty`, 'Link a file with content.');
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
		body.destroy?.();
	}
}
