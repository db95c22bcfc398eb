import { NodeOperationError, sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import type { ZodTypeAny, z } from 'zod';

import { apiErrorFromResponse, networkError, redact, unexpectedResponseError } from './errors';
import type { FailedRequest } from './errors';
import { pacerFor } from './pacing';
import { defaultRetryPolicy, parseRetryAfterMs, retryDelayMs, retryReason } from './retryPolicy';
import type { HttpMethod, RetryPolicy } from './retryPolicy';
import { describeSchemaProblem } from './schemas';

export const credentialType = 'embroideryApi';

/** Every n8n context the Embroidery nodes call the API from. */
export type EmbroideryContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** A readable body that n8n's prepareBinaryData accepts. */
export type FileStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

export interface ApiRequest<S extends ZodTypeAny> {
	method: HttpMethod;
	/** Below the base URL, starting with a slash: `/jobs/conversion/01H...`. */
	path: string;
	schema: S;
	body?: FormData;
	qs?: IDataObject;
	itemIndex?: number;
	retryPolicy?: RetryPolicy;
}

export interface DownloadedFile {
	stream: FileStream;
	fileName?: string;
	mimeType?: string;
	/** Bytes announced by the service, when it says. */
	size?: number;
}

interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

interface EmbroideryCredentials {
	apiKey: string;
	baseUrl: string;
}

/** The credential's base URL without trailing slashes; a clear error when it is not an http(s) URL. */
export function normaliseBaseUrl(context: EmbroideryContext, baseUrl: unknown): string {
	const text = typeof baseUrl === 'string' ? baseUrl.trim().replace(/\/+$/, '') : '';
	if (!/^https?:\/\/[^/]+/i.test(text)) {
		throw new NodeOperationError(
			context.getNode(),
			`The Base URL of the Embroidery API credential is not an http(s) URL: "${String(baseUrl)}"`,
			{ description: 'Set it to the v1 root of the API, for example http://127.0.0.1:8787/api/v1.' },
		);
	}
	return text;
}

async function credentialsOf(context: EmbroideryContext): Promise<EmbroideryCredentials> {
	const data = await context.getCredentials<EmbroideryCredentials>(credentialType);
	return {
		apiKey: typeof data.apiKey === 'string' ? data.apiKey : '',
		baseUrl: normaliseBaseUrl(context, data.baseUrl),
	};
}

function cancelSignalOf(context: EmbroideryContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

function pacingKey(context: EmbroideryContext): string {
	const credential = context.getNode().credentials?.[credentialType];
	return `${context.getExecutionId()}|${credential?.id ?? credential?.name ?? 'default'}`;
}

function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
	return typeof value === 'string' ? value : undefined;
}

/** Error bodies of streamed requests are read (up to 64 KB) so their message can be shown. */
async function readSmallBody(body: unknown): Promise<unknown> {
	if (body === null || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return body;
	const chunks: Uint8Array[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
		const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
		chunks.push(bytes);
		size += bytes.length;
		if (size >= 65_536) break;
	}
	(body as { destroy?: () => void }).destroy?.();
	const text = new TextDecoder().decode(Buffer.concat(chunks));
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/**
 * Sends one request with pacing, bounded retries (429 always; 5xx and network errors for GET only)
 * and cancellation; every failure becomes a NodeApiError without the API key in it.
 */
async function send(
	context: EmbroideryContext,
	options: IHttpRequestOptions,
	request: Omit<FailedRequest, 'attempts'>,
	secrets: string[],
	policy: RetryPolicy,
): Promise<FullResponse> {
	const node = context.getNode();
	const signal = cancelSignalOf(context);
	const pacer = pacerFor(pacingKey(context));
	for (let attempt = 1; ; attempt++) {
		await pacer.waitForTurn(signal);
		let response: FullResponse;
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				{ ...options, returnFullResponse: true, ignoreHttpStatusErrors: true },
			)) as FullResponse;
		} catch (error) {
			if (signal?.aborted) throw new NodeOperationError(node, 'The execution was cancelled');
			const canRetry = retryReason(request.method, { networkError: true }) !== null;
			if (canRetry && attempt < policy.maxAttempts) {
				const delay = retryDelayMs(attempt, null, policy);
				context.logger.debug(
					`Embroidery API ${request.method} ${request.path}: no answer, try ${attempt + 1} in ${delay} ms`,
				);
				await sleep(delay, signal);
				continue;
			}
			throw networkError(node, error, { ...request, attempts: attempt }, secrets);
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) return response;

		const reason = retryReason(request.method, { status });
		const retryAfterMs =
			reason === 'rateLimited' ? parseRetryAfterMs(headerOf(response.headers, 'retry-after')) : null;
		const waitable = retryAfterMs === null || retryAfterMs <= policy.maxRetryAfterMs;
		if (reason !== null && attempt < policy.maxAttempts && waitable) {
			const delay = retryDelayMs(attempt, retryAfterMs, policy);
			context.logger.debug(
				`Embroidery API ${request.method} ${request.path}: HTTP ${status}, try ${attempt + 1} in ${delay} ms`,
			);
			await readSmallBody(response.body);
			await sleep(delay, signal);
			continue;
		}
		const body = await readSmallBody(response.body);
		throw apiErrorFromResponse(node, status, body, { ...request, attempts: attempt }, secrets);
	}
}

async function apiRequest<S extends ZodTypeAny>(
	this: EmbroideryContext,
	request: ApiRequest<S>,
): Promise<z.output<S>> {
	const { apiKey, baseUrl } = await credentialsOf(this);
	const secrets = [apiKey];
	const described = { method: request.method, path: request.path, itemIndex: request.itemIndex };
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		headers: { Accept: 'application/json' },
		json: true,
	};
	if (request.qs) options.qs = request.qs;
	if (request.body) options.body = request.body;
	const response = await send(this, options, described, secrets, request.retryPolicy ?? defaultRetryPolicy);
	const parsed = request.schema.safeParse(response.body);
	if (!parsed.success) {
		throw unexpectedResponseError(
			this.getNode(),
			response.statusCode,
			redact(describeSchemaProblem(parsed.error), secrets),
			{ ...described, attempts: 1 },
		);
	}
	return parsed.data as z.output<S>;
}

/** `embroideryApiRequest.call(context, request)` keeps the schema's type (a plain `.call` would lose it). */
export interface EmbroideryApiRequest {
	<S extends ZodTypeAny>(this: EmbroideryContext, request: ApiRequest<S>): Promise<z.output<S>>;
	call<S extends ZodTypeAny>(context: EmbroideryContext, request: ApiRequest<S>): Promise<z.output<S>>;
}

/** Calls the JSON API and checks the answer against its zod schema. */
export const embroideryApiRequest = apiRequest as EmbroideryApiRequest;

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
