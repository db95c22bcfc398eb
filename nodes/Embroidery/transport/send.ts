import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';

import { cancelSignalOf, credentialType, pacingKey } from './context';
import type { EmbroideryContext } from './context';
import { apiErrorFromResponse, networkError, redirectRefusedError } from './errors';
import type { FailedRequest } from './errors';
import { learnedPacerFor, pacerFor } from './pacing';
import { parseRetryAfterMs, retryDelayMs, retryReason } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import { timeLimits } from './timeLimits';

export interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

export function headerOf(headers: Record<string, unknown>, name: string): string | undefined {
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

const redirectStatuses = [301, 302, 303, 307, 308];

/** Headers for a request that must not carry the API key, whatever an earlier hop added. */
function withoutCredentials(headers: IHttpRequestOptions['headers']): IHttpRequestOptions['headers'] {
	return Object.fromEntries(
		Object.entries(headers ?? {}).filter(([name]) => !/^(authorization|proxy-authorization|cookie)$/i.test(name)),
	);
}

export interface SendSettings {
	/** Texts that must never reach the user: the API key, a URL's signature. */
	secrets: string[];
	policy: RetryPolicy;
	/** The origin of the credential's Base URL: the only one that ever receives the API key. */
	origin: string;
	/** Ends the request early (a download that stopped sending bytes), besides the execution's own cancel. */
	abortSignal?: AbortSignal;
}

/**
 * n8n puts the execution's cancel signal on every authenticated request; a context whose signal also
 * fires on `abortSignal` lets the node end one request itself while keeping the user's Stop button.
 */
function withRequestSignal(context: EmbroideryContext, signal: AbortSignal): EmbroideryContext {
	if (!('getExecutionCancelSignal' in context)) return context;
	return Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as EmbroideryContext;
}

/**
 * One try of a request. n8n would follow redirects itself and copy the Authorization header to every
 * hop, so redirects are followed here: with the key within the service's origin, without it elsewhere
 * (signed file links only, which carry their own permission); an API call sent elsewhere is refused.
 */
async function exchange(
	context: EmbroideryContext,
	options: IHttpRequestOptions,
	request: Omit<FailedRequest, 'attempts'>,
	settings: SendSettings,
	signal: AbortSignal | undefined,
): Promise<FullResponse | { refused: NodeApiError }> {
	let hopOptions: IHttpRequestOptions = options;
	let withKey = true;
	const signals = [signal, settings.abortSignal].filter((one): one is AbortSignal => one !== undefined);
	const requestSignal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
	const requestContext = settings.abortSignal && requestSignal ? withRequestSignal(context, requestSignal) : context;
	for (let hop = 0; ; hop++) {
		const sent: IHttpRequestOptions = {
			...hopOptions,
			// A fresh headers object per request: n8n writes the key into the one it is given.
			headers: withKey ? { ...hopOptions.headers } : withoutCredentials(hopOptions.headers),
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			...(requestSignal ? { abortSignal: requestSignal } : {}),
		};
		const response = (
			withKey
				? await requestContext.helpers.httpRequestWithAuthentication.call(requestContext, credentialType, sent)
				: await context.helpers.httpRequest(sent)
		) as FullResponse;
		const location = headerOf(response.headers, 'location');
		if (!redirectStatuses.includes(response.statusCode) || !location) return response;
		await readSmallBody(response.body);
		let next: URL;
		try {
			next = new URL(location, hopOptions.url);
		} catch {
			return { refused: redirectRefusedError(context.getNode(), request, location, 'not a valid address') };
		}
		const refuse = (reason: string) => ({ refused: redirectRefusedError(context.getNode(), request, next.origin, reason) });
		if (hop >= timeLimits.maxRedirects) return refuse(`more than ${timeLimits.maxRedirects} redirects in a row`);
		if (request.method !== 'GET') return refuse('the node does not send a POST again to another address');
		if (next.origin !== settings.origin) {
			if (request.action !== 'downloadFile') return refuse(`another origin than the credential's Base URL (${settings.origin})`);
			withKey = false;
		}
		hopOptions = { ...hopOptions, url: next.href, qs: undefined };
	}
}

/**
 * Sends one request with pacing, bounded retries (429 always; 5xx and network errors for GET only)
 * and cancellation; every failure becomes a NodeApiError without the API key in it.
 */
export async function send(
	context: EmbroideryContext,
	options: IHttpRequestOptions,
	request: Omit<FailedRequest, 'attempts'>,
	settings: SendSettings,
): Promise<FullResponse> {
	const { secrets, policy } = settings;
	const node = context.getNode();
	const signal = cancelSignalOf(context);
	const pacer = pacerFor(pacingKey(context));
	// Unlocks have their own, tighter limit (not published); it is learned from its first 429.
	const unlockPacer =
		request.action === 'unlockJob' ? learnedPacerFor(`${pacingKey(context)}|unlock`) : undefined;
	for (let attempt = 1; ; attempt++) {
		await unlockPacer?.waitForTurn(signal);
		await pacer.waitForTurn(signal);
		const startedAt = Date.now();
		let answer: Awaited<ReturnType<typeof exchange>>;
		try {
			answer = await exchange(context, options, request, settings, signal);
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
		if ('refused' in answer) throw answer.refused;
		const response = answer;
		const status = response.statusCode;
		// A 5xx may come before the service counted the request; counting it could learn too high a limit.
		if (status !== 429 && status < 500) unlockPacer?.recordAccepted(startedAt);
		if (status >= 200 && status < 300) return response;

		const reason = retryReason(request.method, { status });
		const retryAfterMs =
			reason === 'rateLimited' ? parseRetryAfterMs(headerOf(response.headers, 'retry-after')) : null;
		if (status === 429) unlockPacer?.recordRefused(retryAfterMs);
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
		const tooLong = waitable ? {} : { retryAfterSeconds: Math.ceil((retryAfterMs ?? 0) / 1000) };
		throw apiErrorFromResponse(node, status, body, { ...request, attempts: attempt, ...tooLong }, secrets);
	}
}

