import { NodeOperationError } from 'n8n-workflow';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { clock, wallClock } from './clock';
import { cancelSignalOf, credentialType, withCancelSignal } from './context';
import type { EmbroideryContext } from './context';
import { apiErrorFromResponse, networkError } from './errors';
import type { FailedRequest } from './routes';
import { rateLimitGate } from './rateLimit';
import { apiRedirectRules, followRedirects, redirectLimits } from './redirects';
import type { Hop } from './redirects';
import { readSmallBody } from './responseBody';
import type { FullResponse } from './responseBody';
import { bodyNotSent, failureDelayMs, retryReason } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import { timeLimits } from './timeLimits';
import { withinLimit } from './withinLimit';

export interface SendSettings {
	/** Texts that must never reach the user: the API key, a URL's signature. */
	secrets: string[];
	policy: RetryPolicy;
	/** The origin of the credential's Base URL: the only one that ever receives the API key. */
	origin: string;
	/** Ends the request early (a download that stopped sending bytes), besides the execution's own cancel. */
	abortSignal?: AbortSignal;
	/**
	 * How long one try may wait for its answer, in all: a JSON answer's whole body (n8n reads it before it
	 * answers), a stream's headers. The try then ends as one that got no answer.
	 */
	answerMs: number;
	/** Tries counted so far, shared with a caller that sends the same request again (a download cut off midway). */
	tries?: Tries;
}

/** Tries of one request so far: refused ones (429, an upload cut off before it was sent), failed ones (the rest). */
export interface Tries {
	refused: number;
	failed: number;
	/**
	 * When the first refused try started: the refusals' time budget counts from there. A request that waited its
	 * turn behind the execution's other requests (the pacers) has not been refused yet, so that wait is not spent.
	 */
	firstRefusedAt?: number;
}

/** Headers for a request that must not carry the API key, whatever an earlier hop added. */
function withoutCredentials(
	headers: IHttpRequestOptions['headers'],
): IHttpRequestOptions['headers'] {
	return Object.fromEntries(
		Object.entries(headers ?? {}).filter(
			([name]) => !/^(authorization|proxy-authorization|cookie)$/i.test(name),
		),
	);
}

/**
 * One try of a request, with the redirects it meets (redirects.ts says which are followed, and with
 * the key or not).
 */
async function exchange(
	context: EmbroideryContext,
	options: IHttpRequestOptions,
	request: Omit<FailedRequest, 'attempts'>,
	settings: SendSettings,
	signal: AbortSignal | undefined,
	stopTry: AbortSignal,
): Promise<{ response: FullResponse } | { refused: Error }> {
	const signals = [signal, settings.abortSignal, stopTry].filter(
		(one): one is AbortSignal => one !== undefined,
	);
	const requestSignal = AbortSignal.any(signals);
	const requestContext = withCancelSignal(context, requestSignal);
	const sendHop = async (hop: Hop): Promise<FullResponse> => {
		const sent: IHttpRequestOptions = {
			...options,
			url: hop.redirected ? hop.url.href : options.url,
			qs: hop.redirected ? undefined : options.qs,
			// A fresh headers object per request: n8n writes the key into the one it is given.
			headers: hop.withKey ? { ...options.headers } : withoutCredentials(options.headers),
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			abortSignal: requestSignal,
		};
		return (
			hop.withKey
				? await requestContext.helpers.httpRequestWithAuthentication.call(
						requestContext,
						credentialType,
						sent,
					)
				: await context.helpers.httpRequest(sent)
		) as FullResponse;
	};
	const first: Hop = { url: new URL(options.url), withKey: true, redirected: false };
	const rules = apiRedirectRules(
		context.getNode(),
		request,
		settings.origin,
		redirectLimits.apiCall,
	);
	return await followRedirects(first, sendHop, rules);
}

/**
 * Sends one API request: through the rate-limit gate (rateLimit.ts, which also decides what a 429 does), then
 * the request and its redirects (redirects.ts); a request that got no answer or a 5xx is sent again only as
 * retryPolicy.ts allows (GET only, or an upload cut off before it was sent); every other outcome becomes a
 * NodeApiError without the API key in it (errors.ts, explanations.ts).
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
	const gate = rateLimitGate(context, request.action, settings.origin, policy);
	const tries: Tries = settings.tries ?? { refused: 0, failed: 0 };
	/** Counts a refused try (429, an upload cut off before it was sent); the first starts the refusals' budget. */
	const countRefusal = (startedAt: number) => {
		tries.refused++;
		tries.firstRefusedAt ??= startedAt;
	};
	/** Time since this request was first refused (0 before), the budget's measure for refusals. */
	const refusedForMs = () =>
		tries.firstRefusedAt === undefined ? 0 : clock.now() - tries.firstRefusedAt;
	const retryLater = async (delayMs: number, what: string, attempt: number) => {
		context.logger.debug(
			`Embroidery API ${request.method} ${request.path}: ${what}, try ${attempt + 1} in ${delayMs} ms`,
		);
		await clock.sleep(delayMs, signal);
	};
	const cancelled = () => new NodeOperationError(node, 'The execution was cancelled');
	// An error body is read under the download's idle limit: a body that stalls leaves the status alone to show.
	const readErrorBody = async (body: unknown, stopTry: AbortController) =>
		await readSmallBody(body, timeLimits.fileIdleMs, () => stopTry.abort());
	const what = options.encoding === 'stream' ? 'no answer' : 'no complete answer';
	for (let attempt = tries.refused + tries.failed + 1; ; attempt++) {
		const slot = await gate.waitForTurn(signal);
		const startedAt = clock.now();
		const stopTry = new AbortController();
		// Wall time, like the socket's own limits: a test's driven clock never ends a request still under way.
		// Stop is not raced here: it aborts the request itself, which then ends before the node goes on.
		const waited = await withinLimit(
			exchange(context, options, request, settings, signal, stopTry.signal),
			settings.answerMs,
			undefined,
			() => stopTry.abort(),
			wallClock,
		);
		if (!('answer' in waited)) {
			if (signal?.aborted) throw cancelled();
			const error =
				'failed' in waited
					? waited.failed
					: new Error(`${what} within ${Math.round(settings.answerMs / 100) / 10} s`);
			const reason = retryReason(request.method, {
				networkError: true,
				bodyNotSent: bodyNotSent(error),
			});
			if (reason === 'bodyNotSent') countRefusal(startedAt);
			else tries.failed++;
			const delay = failureDelayMs(reason, tries, refusedForMs(), policy);
			if (delay === null)
				throw networkError(node, error, { ...request, attempts: attempt }, secrets);
			await retryLater(
				delay,
				reason === 'bodyNotSent' ? 'the upload was cut off before it was sent' : 'no answer',
				attempt,
			);
			continue;
		}
		const answer = waited.answer;
		if ('refused' in answer) throw answer.refused;
		const { response } = answer;
		const status = response.statusCode;
		// A 5xx may come before the service counted the request; counting it could learn too high a limit.
		if (status !== 429 && status < 500) gate.recordCounted(startedAt);
		if (status >= 200 && status < 300) return response;

		if (status === 429) {
			countRefusal(startedAt);
			const outcome = gate.refused(response, slot, tries.refused, refusedForMs());
			const body = await readErrorBody(response.body, stopTry);
			if ('delayMs' in outcome) {
				await retryLater(outcome.delayMs, 'HTTP 429', attempt);
				continue;
			}
			throw apiErrorFromResponse(
				node,
				status,
				body,
				{ ...request, attempts: attempt, ...outcome.giveUp },
				secrets,
			);
		}
		tries.failed++;
		const delay = failureDelayMs(
			retryReason(request.method, { status }),
			tries,
			refusedForMs(),
			policy,
		);
		const body = await readErrorBody(response.body, stopTry);
		if (delay === null)
			throw apiErrorFromResponse(node, status, body, { ...request, attempts: attempt }, secrets);
		await retryLater(delay, `HTTP ${status}`, attempt);
	}
}
