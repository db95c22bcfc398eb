import type { INode } from 'n8n-workflow';

import { redirectRefusedError, redirectedPostError } from './errors';
import type { FailedRequest } from './routes';
import { discardBody, headerOf } from './responseBody';
import type { FullResponse } from './responseBody';

/**
 * Every redirect the node meets is followed here, one hop at a time, never by n8n's client: n8n would copy
 * the Authorization header to every hop and check no hop's address. Each kind of request brings its rules.
 */

/** Redirects followed in a row before the node gives up: room for a storage or CDN hop or two, not for a loop. */
export const redirectLimits = {
	/** An API call, within the service's own origin (and to a signed file's host). */
	apiCall: 5,
	/** A Source URL (Job > Create from a URL), someone else's server. */
	sourceUrl: 5,
};

/** One request of a chain: where it goes, and whether it may carry the API key. */
export interface Hop {
	url: URL;
	withKey: boolean;
	/** A hop a redirect led to: its URL is complete, the first request's query is not added again. */
	redirected: boolean;
}

export type HopDecision = { next: Hop } | { refused: Error };

/** Where a kind of request may be redirected to. */
export interface RedirectRules {
	maxRedirects: number;
	/** The hop `to` as the next request, or the refusal the user sees. */
	follow(from: Hop, to: URL, status: number): HopDecision;
	/** A redirect that is not followed: `target` is what the Location said, `reason` why not. */
	refuse(target: string, reason: string): Error;
}

const redirectStatuses = [301, 302, 303, 307, 308];

/**
 * Sends `first`, then each hop its redirects lead to while `rules` allow; ends with the answer that
 * is not a redirect.
 */
export async function followRedirects(
	first: Hop,
	sendHop: (hop: Hop) => Promise<FullResponse>,
	rules: RedirectRules,
): Promise<{ response: FullResponse; hop: Hop } | { refused: Error }> {
	let hop = first;
	for (let redirects = 0; ; redirects++) {
		const response = await sendHop(hop);
		const location = headerOf(response.headers, 'location');
		if (!redirectStatuses.includes(response.statusCode) || !location) return { response, hop };
		discardBody(response.body);
		let next: URL;
		try {
			next = new URL(location, hop.url);
		} catch {
			return { refused: rules.refuse(location, 'not a valid address') };
		}
		if (redirects >= rules.maxRedirects) {
			return {
				refused: rules.refuse(next.origin, `more than ${rules.maxRedirects} redirects in a row`),
			};
		}
		const decision = rules.follow(hop, next, response.statusCode);
		if ('refused' in decision) return decision;
		hop = decision.next;
	}
}

/**
 * API calls: within the credential's origin the key goes along; elsewhere only a signed file link is
 * followed, without the key (it carries its own permission); any other call sent elsewhere is refused, and
 * so is every redirected POST, even within the origin (its upload or unlock is never sent twice).
 */
export function apiRedirectRules(
	node: INode,
	request: Omit<FailedRequest, 'attempts'>,
	origin: string,
	maxRedirects: number,
): RedirectRules {
	const refuse = (target: string, reason: string) =>
		redirectRefusedError(node, request, target, reason);
	return {
		maxRedirects,
		refuse,
		follow(from, to, status) {
			if (request.method !== 'GET')
				return { refused: redirectedPostError(node, request, to, status) };
			if (to.origin === origin)
				return { next: { url: to, withKey: from.withKey, redirected: true } };
			if (!request.signedFileLink) {
				return {
					refused: refuse(to.origin, `another origin than the credential's 'Base URL' (${origin})`),
				};
			}
			return { next: { url: to, withKey: false, redirected: true } };
		},
	};
}
