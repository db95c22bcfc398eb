import { NodeOperationError } from 'n8n-workflow';
import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';

import { clock } from './clock';
import { cancelSignalOf, credentialType, pacingKey, serviceLimitKey } from './context';
import type { EmbroideryContext } from './context';
import { apiErrorFromResponse, networkError, redirectRefusedError, redirectedPostError } from './errors';
import type { FailedRequest } from './errors';
import { learnedPacerFor, pacerFor } from './pacing';
import { isRefusal, parseRetryAfterMs, refusalDelayMs, retryDelayMs, retryReason } from './retryPolicy';
import type { RetryPolicy, RetryReason } from './retryPolicy';
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
 * hop, so redirects of a GET are followed here: with the key within the service's origin, without it
 * elsewhere (signed file links only, which carry their own permission); an API call sent elsewhere is
 * refused, and so is every redirected POST.
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
		// Before the origin check: a POST is not resent even within the origin, and so never carries the key elsewhere.
		if (request.method !== 'GET') return { refused: redirectedPostError(context.getNode(), request, next, response.statusCode) };
		if (next.origin !== settings.origin) {
			if (request.action !== 'downloadFile') return refuse(`another origin than the credential's Base URL (${settings.origin})`);
			withKey = false;
		}
		hopOptions = { ...hopOptions, url: next.href, qs: undefined };
	}
}

/** Errors and the errors they wrap, outermost first (n8n wraps axios's error, which wraps the socket's). */
function errorChain(error: unknown): object[] {
	const chain: object[] = [];
	for (let link = error; link !== null && typeof link === 'object' && chain.length < 5; link = (link as { cause?: unknown }).cause) {
		chain.push(link);
	}
	return chain;
}

/**
 * Whether a request that got no answer was cut off before its body was completely written: the socket said
 * EPIPE (the server closed it while the upload was being sent), or n8n's request (Node's ClientRequest, on
 * axios's error) never finished writing. A request whose body was fully sent and then lost its connection
 * (reset, time limit) is not one: the service may have acted on it.
 */
export function bodyNotSent(error: unknown): boolean {
	const chain = errorChain(error);
	if (chain.some((link) => (link as { code?: unknown }).code === 'EPIPE')) return true;
	const request = chain
		.map((link) => (link as { request?: unknown }).request)
		.find((candidate) => candidate !== null && typeof candidate === 'object' && 'writableFinished' in candidate);
	return (request as { writableFinished?: unknown } | undefined)?.writableFinished === false;
}

/** The wait before the next try; null when the request must not be sent again. */
function nextDelayMs(
	reason: RetryReason | null,
	tries: { refused: number; failed: number },
	retryAfterMs: number | null,
	elapsedMs: number,
	policy: RetryPolicy,
): number | null {
	if (reason === null) return null;
	if (!isRefusal(reason)) return tries.failed < policy.maxAttempts ? retryDelayMs(tries.failed, null, policy) : null;
	const delay = refusalDelayMs(tries.refused, retryAfterMs, policy);
	return elapsedMs + delay <= policy.refusedBudgetMs ? delay : null;
}

/**
 * Sends one request with pacing, retries and cancellation; every failure becomes a NodeApiError without the
 * API key in it. Refusals the service acted on in no way (429, an upload cut off before it was sent) are
 * repeated within the policy's time budget, each 429 pausing every request of the key until its Retry-After;
 * 5xx answers and lost connections are repeated a bounded number of times, and for GET only.
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
	// The service's limit is per API key, and other processes may be using it too: a 429 pauses this whole key.
	const keyPacer = learnedPacerFor(serviceLimitKey(context, settings.origin), { limitLastsOneWindow: true });
	// Unlocks have their own, tighter limit (not published); it is learned from its first 429.
	const unlockPacer =
		request.action === 'unlockJob' ? learnedPacerFor(`${pacingKey(context)}|unlock`) : undefined;
	const firstStartedAt = clock.now();
	const tries = { refused: 0, failed: 0 };
	for (let attempt = 1; ; attempt++) {
		await unlockPacer?.waitForTurn(signal, policy.maxJitterMs);
		await keyPacer.waitForTurn(signal, policy.maxJitterMs);
		const slot = await pacer.waitForTurn(signal);
		const startedAt = clock.now();
		let answer: Awaited<ReturnType<typeof exchange>>;
		try {
			answer = await exchange(context, options, request, settings, signal);
		} catch (error) {
			if (signal?.aborted) throw new NodeOperationError(node, 'The execution was cancelled');
			const reason = retryReason(request.method, { networkError: true, bodyNotSent: bodyNotSent(error) });
			if (reason === 'bodyNotSent') tries.refused++;
			else tries.failed++;
			const delay = nextDelayMs(reason, tries, null, clock.now() - firstStartedAt, policy);
			if (delay !== null) {
				const what = reason === 'bodyNotSent' ? 'the upload was cut off before it was sent' : 'no answer';
				context.logger.debug(
					`Embroidery API ${request.method} ${request.path}: ${what}, try ${attempt + 1} in ${delay} ms`,
				);
				await clock.sleep(delay, signal);
				continue;
			}
			throw networkError(node, error, { ...request, attempts: attempt }, secrets);
		}
		if ('refused' in answer) throw answer.refused;
		const response = answer;
		const status = response.statusCode;
		// A 5xx may come before the service counted the request; counting it could learn too high a limit.
		if (status !== 429 && status < 500) {
			unlockPacer?.recordAccepted(startedAt);
			keyPacer.recordAccepted(startedAt);
		}
		if (status >= 200 && status < 300) return response;

		const reason = retryReason(request.method, { status });
		const retryAfterMs =
			reason === 'rateLimited' ? parseRetryAfterMs(headerOf(response.headers, 'retry-after')) : null;
		if (status === 429) pacer.giveBack(slot);
		if (reason === 'rateLimited') tries.refused++;
		else tries.failed++;
		const waitable = retryAfterMs === null || retryAfterMs <= policy.maxRetryAfterMs;
		const delay = waitable ? nextDelayMs(reason, tries, retryAfterMs, clock.now() - firstStartedAt, policy) : null;
		if (delay !== null) {
			// Only a Retry-After the node waits out pauses the others; an unlock's 429 is the unlock limit's.
			if (status === 429) {
				const refusedBy = unlockPacer ?? keyPacer;
				refusedBy.recordRefused(retryAfterMs);
				if (retryAfterMs !== null) refusedBy.pause(retryAfterMs);
			}
			context.logger.debug(
				`Embroidery API ${request.method} ${request.path}: HTTP ${status}, try ${attempt + 1} in ${delay} ms`,
			);
			await readSmallBody(response.body);
			await clock.sleep(delay, signal);
			continue;
		}
		const body = await readSmallBody(response.body);
		const tooLong = waitable ? {} : { retryAfterSeconds: Math.ceil((retryAfterMs ?? 0) / 1000) };
		throw apiErrorFromResponse(node, status, body, { ...request, attempts: attempt, ...tooLong }, secrets);
	}
}
