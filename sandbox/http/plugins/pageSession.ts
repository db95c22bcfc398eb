import { timingSafeEqual } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { ForbiddenError, UnauthenticatedError } from '../../services/errors';
import type { PageSession } from '../../services/sessions';

/**
 * Who may open an account page: anyone (sign-in, assets), only a signed-in visitor, or the holder of a
 * sign-in link (its POST, which the link's token authorises in place of a session and CSRF token).
 */
export type PageAccess = 'anyone' | 'signedIn' | 'signInLink';

declare module 'fastify' {
	interface FastifyContextConfig {
		/** Who may open this account page; every route under /account states it. */
		page?: PageAccess;
	}
	interface FastifyRequest {
		/** The signed-in visitor of the account pages, when the session cookie names a live session. */
		pageSession: (PageSession & { sessionId: string }) | null;
	}
}

export const sessionCookie = 'embroidery_session';

/**
 * The session cookie's flags: no script reads it, only this site's requests carry it, only to /account,
 * only over https when served so. It has no expiry of its own: it ends with the browser, and the service
 * ends the session 12 hours after sign-in whatever the cookie says.
 */
export function sessionCookieOptions(request: FastifyRequest) {
	return {
		path: '/account',
		httpOnly: true,
		sameSite: 'strict' as const,
		secure: request.protocol === 'https',
	};
}

export function startSession(
	request: FastifyRequest,
	reply: FastifyReply,
	session: { sessionId: string },
): void {
	reply.setCookie(sessionCookie, session.sessionId, sessionCookieOptions(request));
}

export function endSession(request: FastifyRequest, reply: FastifyReply): void {
	if (request.pageSession) request.server.services.sessions.signOut(request.pageSession.sessionId);
	reply.clearCookie(sessionCookie, sessionCookieOptions(request));
}

/**
 * Before validation and the handler of every account page: the session behind the cookie, 401 on a
 * signed-in page without one, and on every POST the session's CSRF token from the form (403 when it is
 * missing or wrong), so nothing runs for a refused visitor.
 */
export const pageSessionPlugin = fp(
	async (app: FastifyInstance) => {
		app.decorateRequest('pageSession', null);
		app.addHook('preValidation', async (request: FastifyRequest) => {
			const sessionId = request.cookies[sessionCookie];
			const session = sessionId ? app.services.sessions.session(sessionId) : undefined;
			if (session && sessionId) request.pageSession = { ...session, sessionId };
			const access = request.routeOptions.config.page;
			if (access === 'signInLink' || (access === 'anyone' && request.method !== 'POST')) return;
			if (!request.pageSession) {
				throw new UnauthenticatedError(
					sessionId
						? 'Your session has ended. Sign in again with a new sign-in link.'
						: 'You are not signed in. Open a sign-in link to see this page.',
				);
			}
			if (request.method === 'POST') checkCsrfToken(request, request.pageSession.csrfToken);
		});
	},
	{ name: 'sandbox-page-session', dependencies: ['sandbox-services', '@fastify/cookie'] },
);

function checkCsrfToken(request: FastifyRequest, expected: string): void {
	const body = request.body as Record<string, unknown> | undefined;
	const given = Buffer.from(typeof body?._csrf === 'string' ? body._csrf : '');
	const wanted = Buffer.from(expected);
	if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
		throw new ForbiddenError(
			'The form was not sent from this signed-in page (its security token is missing or out of date). ' +
				'Reload the page and try again.',
		);
	}
}

/** The signed-in visitor; only inside a route whose `config.page` is `signedIn`. */
export function sessionOf(request: FastifyRequest): PageSession & { sessionId: string } {
	if (!request.pageSession) throw new Error(`Route ${request.routeOptions.url} is not signed in.`);
	return request.pageSession;
}
