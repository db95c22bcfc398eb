import { NodeOperationError } from 'n8n-workflow';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { clock } from './clock';
import { cancelSignalOf, credentialType, withCancelSignal } from './context';
import type { EmbroideryContext } from './context';
import { apiErrorFromResponse, networkError } from './errors';
import type { FailedRequest } from './errors';
import { rateLimitGate } from './rateLimit';
import { apiRedirectRules, followRedirects } from './redirects';
import type { Hop } from './redirects';
import { readSmallBody } from './responseBody';
import type { FullResponse } from './responseBody';
import { bodyNotSent, failureDelayMs, retryReason } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import { timeLimits } from './timeLimits';

export interface SendSettings {
	/** Texts that must never reach the user: the API key, a URL's signature. */
	secrets: string[];
	policy: RetryPolicy;
	/** The origin of the credential's Base URL: the only one that ever receives the API key. */
	origin: string;
	/** Ends the request early (a download that stopped sending bytes), besides the execution's own cancel. */
	abortSignal?: AbortSignal;
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
): Promise<{ response: FullResponse } | { refused: Error }> {
	const signals = [signal, settings.abortSignal].filter(
		(one): one is AbortSignal => one !== undefined,
	);
	const requestSignal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
	const requestContext =
		settings.abortSignal && requestSignal ? withCancelSignal(context, requestSignal) : context;
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
			...(requestSignal ? { abortSignal: requestSignal } : {}),
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
		timeLimits.maxRedirects,
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
	const firstStartedAt = clock.now();
	const tries = { refused: 0, failed: 0 };
	const retryLater = async (delayMs: number, what: string, attempt: number) => {
		context.logger.debug(
			`Embroidery API ${request.method} ${request.path}: ${what}, try ${attempt + 1} in ${delayMs} ms`,
		);
		await clock.sleep(delayMs, signal);
	};
	for (let attempt = 1; ; attempt++) {
		const slot = await gate.waitForTurn(signal);
		const startedAt = clock.now();
		let answer: Awaited<ReturnType<typeof exchange>>;
		try {
			answer = await exchange(context, options, request, settings, signal);
		} catch (error) {
			if (signal?.aborted) throw new NodeOperationError(node, 'The execution was cancelled');
			const reason = retryReason(request.method, {
				networkError: true,
				bodyNotSent: bodyNotSent(error),
			});
			if (reason === 'bodyNotSent') tries.refused++;
			else tries.failed++;
			const delay = failureDelayMs(reason, tries, clock.now() - firstStartedAt, policy);
			if (delay === null)
				throw networkError(node, error, { ...request, attempts: attempt }, secrets);
			await retryLater(
				delay,
				reason === 'bodyNotSent' ? 'the upload was cut off before it was sent' : 'no answer',
				attempt,
			);
			continue;
		}
		if ('refused' in answer) throw answer.refused;
		const { response } = answer;
		const status = response.statusCode;
		// A 5xx may come before the service counted the request; counting it could learn too high a limit.
		if (status !== 429 && status < 500) gate.recordCounted(startedAt);
		if (status >= 200 && status < 300) return response;

		if (status === 429) {
			tries.refused++;
			const outcome = gate.refused(response, slot, tries.refused, clock.now() - firstStartedAt);
			const body = await readSmallBody(response.body);
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
			clock.now() - firstStartedAt,
			policy,
		);
		const body = await readSmallBody(response.body);
		if (delay === null)
			throw apiErrorFromResponse(node, status, body, { ...request, attempts: attempt }, secrets);
		await retryLater(delay, `HTTP ${status}`, attempt);
	}
}
