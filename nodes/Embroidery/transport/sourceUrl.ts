import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { clock } from './clock';
import { timeLimitOf } from './errors';
import { sourceUrlAdvice } from './nextSteps';
import { checkBeforeConnecting, checkConnected, resolverFor } from './privateNetworks';
import type { CheckedHop, RefusedAddress } from './privateNetworks';
import { followRedirects, redirectLimits } from './redirects';
import type { Hop, RedirectRules } from './redirects';
import { discardBody, headerOf } from './responseBody';
import type { FullResponse } from './responseBody';
import { limitedStream } from './streamLimits';
import type { ByteStream, LimitedStream } from './streamLimits';
import { sourceUrlLimits } from './timeLimits';
import { withinLimit } from './withinLimit';

/**
 * Fetching the file of a Source URL: someone else's server, reached with n8n's plain request helper and no
 * credential (the API key never goes there, nor to a host a redirect leads to). Every hop is checked against
 * the private-network policy (privateNetworks.ts) and follows the one redirect loop (redirects.ts); the server
 * must answer within `answerMs`, keep sending bytes (`idleMs`), finish within `totalMs` and stay under the
 * workflow's size ceiling, and Stop ends it at once.
 */

export interface SourceUrlRequest {
	url: URL;
	itemIndex: number;
	allowPrivateNetworks: boolean;
	maxBytes: number;
	/** The error for a file over `maxBytes`; `announcedBytes` when the server said so before sending it. */
	tooLarge: (announcedBytes: number | undefined) => Error;
}

export interface FetchedSource {
	statusCode: number;
	headers: Record<string, unknown>;
	/** The link that answered, after redirects. */
	servedFrom: URL;
	/** The body, ended by the first limit it crosses (`failure()` then says which). */
	body: LimitedStream;
}

/** The URL without its query (signed links carry tokens there), for messages. */
export function shownUrl(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

const articleOf = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

function refusedAddressError(
	context: IExecuteFunctions,
	itemIndex: number,
	link: URL,
	first: boolean,
	refused: RefusedAddress,
) {
	const subject = first
		? `The 'Source URL' ${shownUrl(link)}`
		: `The 'Source URL' redirects to ${shownUrl(link)}, which`;
	const where =
		{ link: 'is on', resolver: 'resolves to', socket: 'was answered from' }[refused.seenIn] +
		` ${refused.address}`;
	const message =
		refused.kind === 'unconfirmed'
			? `${subject} was answered from an address the node could not read, so it was not fetched [item ${itemIndex}]`
			: `${subject} ${where}, ${articleOf(refused.kind)} ${refused.kind} address: not fetched [item ${itemIndex}]`;
	return new NodeOperationError(context.getNode(), message, {
		itemIndex,
		description: sourceUrlAdvice.privateNetwork,
	});
}

function sourceUrlRefused(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
) {
	return new NodeOperationError(context.getNode(), `${message} [item ${itemIndex}]`, {
		itemIndex,
		description,
	});
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function fetchSourceUrl(
	context: IExecuteFunctions,
	request: SourceUrlRequest,
): Promise<FetchedSource> {
	const { itemIndex, allowPrivateNetworks } = request;
	const startedAt = clock.now();
	const cancel = context.getExecutionCancelSignal?.();
	const stopRequest = new AbortController();
	const requestSignal = cancel ? AbortSignal.any([cancel, stopRequest.signal]) : stopRequest.signal;
	const cancelledError = () =>
		new NodeOperationError(context.getNode(), 'The execution was cancelled', { itemIndex });
	const resolver = resolverFor(context);
	const limits = sourceUrlLimits;

	const sendHop = async (hop: Hop): Promise<FullResponse> => {
		// The name look-up is part of the answer: under the same limit, and Stop ends the wait for it.
		const lookupMs = Math.min(limits.answerMs, limits.totalMs - (clock.now() - startedAt));
		const looked = await withinLimit(
			checkBeforeConnecting(hop.url, resolver),
			lookupMs,
			cancel,
			() => undefined,
		);
		if ('ended' in looked) {
			if (looked.ended === 'cancel') throw cancelledError();
			throw sourceUrlRefused(
				context,
				itemIndex,
				`The host of the 'Source URL' ${shownUrl(hop.url)} could not be resolved within ${seconds(lookupMs)}`,
				sourceUrlAdvice.unresolvedInTime,
			);
		}
		if ('failed' in looked) {
			const reason = looked.failed instanceof Error ? looked.failed.message : String(looked.failed);
			throw sourceUrlRefused(
				context,
				itemIndex,
				`The host of the 'Source URL' ${shownUrl(hop.url)} could not be resolved: ${reason}`,
				sourceUrlAdvice.unresolved,
			);
		}
		const checked: CheckedHop & { refused?: RefusedAddress } = looked.answer;
		if (checked.refused && !allowPrivateNetworks) {
			throw refusedAddressError(context, itemIndex, hop.url, !hop.redirected, checked.refused);
		}
		const options: IHttpRequestOptions = {
			method: 'GET',
			url: checked.url.href,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			timeout: limits.answerMs,
			abortSignal: requestSignal,
			// Identity: a compressed answer would hide the socket whose address is checked.
			headers: {
				Accept: '*/*',
				'Accept-Encoding': 'identity',
				...(checked.hostHeader ? { Host: checked.hostHeader } : {}),
			},
			...(checked.serverName ? { agentOptions: { servername: checked.serverName } } : {}),
		};
		const answerMs = Math.min(limits.answerMs, limits.totalMs - (clock.now() - startedAt));
		const waited = await withinLimit(
			context.helpers.httpRequest(options) as Promise<FullResponse>,
			answerMs,
			cancel,
			() => stopRequest.abort(),
		);
		// The request's own time limit is the same as the wait's; on a busy machine either timer may fire first.
		const timedOut = 'failed' in waited && timeLimitOf(waited.failed) !== undefined;
		if ('ended' in waited || timedOut) {
			if (('ended' in waited && waited.ended === 'cancel') || cancel?.aborted)
				throw cancelledError();
			throw sourceUrlRefused(
				context,
				itemIndex,
				`The 'Source URL' ${shownUrl(hop.url)} did not answer within ${seconds(answerMs)}`,
				sourceUrlAdvice.noAnswer,
			);
		}
		if ('failed' in waited) {
			if (cancel?.aborted) throw cancelledError();
			const reason = waited.failed instanceof Error ? waited.failed.message : String(waited.failed);
			throw sourceUrlRefused(
				context,
				itemIndex,
				`Could not fetch the 'Source URL' ${shownUrl(hop.url)}: ${reason}`,
				sourceUrlAdvice.unreachable,
			);
		}
		const response = waited.answer;
		const connected = allowPrivateNetworks ? undefined : checkConnected(response.body, checked);
		if (connected) {
			discardBody(response.body);
			throw refusedAddressError(context, itemIndex, hop.url, !hop.redirected, connected);
		}
		return response;
	};

	const rules: RedirectRules = {
		maxRedirects: redirectLimits.sourceUrl,
		refuse: (target, reason) =>
			sourceUrlRefused(
				context,
				itemIndex,
				`The 'Source URL' ${shownUrl(request.url)} redirects to ${target}: ${reason}`,
				sourceUrlAdvice.redirectRefused,
			),
		follow(_from, to) {
			if (to.protocol !== 'http:' && to.protocol !== 'https:') {
				return {
					refused: rules.refuse(
						shownUrl(to),
						`a ${to.protocol.replace(/:$/, '')} link; only http and https are followed`,
					),
				};
			}
			return { next: { url: to, withKey: false, redirected: true } };
		},
	};
	const outcome = await followRedirects(
		{ url: request.url, withKey: false, redirected: false },
		sendHop,
		rules,
	);
	if ('refused' in outcome) throw outcome.refused;
	const { response, hop } = outcome;
	const announced = Number(headerOf(response.headers, 'content-length'));
	if (
		response.statusCode >= 200 &&
		response.statusCode < 300 &&
		Number.isFinite(announced) &&
		announced > request.maxBytes
	) {
		discardBody(response.body);
		throw request.tooLarge(announced);
	}
	const body = limitedStream(
		response.body as ByteStream,
		{
			idle: {
				ms: limits.idleMs,
				error: () =>
					sourceUrlRefused(
						context,
						itemIndex,
						`The 'Source URL' ${shownUrl(hop.url)} stopped sending: no data for ${seconds(limits.idleMs)}`,
						sourceUrlAdvice.stalled,
					),
			},
			total: {
				ms: limits.totalMs,
				startedAt,
				error: () =>
					sourceUrlRefused(
						context,
						itemIndex,
						`The 'Source URL' ${shownUrl(hop.url)} took longer than ${seconds(limits.totalMs)} to send its file`,
						sourceUrlAdvice.tooSlow,
					),
			},
			size: { maxBytes: request.maxBytes, error: () => request.tooLarge(undefined) },
			...(cancel ? { cancel: { signal: cancel, error: cancelledError } } : {}),
		},
		() => stopRequest.abort(),
	);
	return { statusCode: response.statusCode, headers: response.headers, servedFrom: hop.url, body };
}
