import type { FastifyInstance } from 'fastify';

import { htmlType, pagePaths } from '../../pages/layout';
import { signedOutPage, signInHintPage, signInLinkPage } from '../../pages/messagePages';
import { endSession, startSession } from '../../plugins/pageSession';

const tokenParams = {
	type: 'object',
	required: ['token'],
	properties: { token: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } },
} as const;

/** Signing in through a one-time link, and out again. */
export async function signInRoutes(app: FastifyInstance): Promise<void> {
	app.get('/sign-in', { config: { page: 'anyone' } }, async (request, reply) => {
		if (request.pageSession) return reply.redirect(pagePaths.keys, 303);
		return reply.type(htmlType).send(signInHintPage('Open a sign-in link to see your account.'));
	});

	// Opening the link changes nothing (a link preview or a mail scanner fetches it too): it shows a page
	// whose button signs in. A used, expired or unknown link gets a page saying so.
	app.get<{ Params: { token: string } }>(
		'/sign-in/:token',
		{ schema: { params: tokenParams }, config: { page: 'anyone' } },
		async (request, reply) => {
			app.services.sessions.checkSignInLink(request.params.token);
			return reply.type(htmlType).send(signInLinkPage(request.url));
		},
	);

	// The button: the link uses itself up and opens a session. The token in the address is the proof, so no
	// session or CSRF token is asked for; the form is posted from the page above, a same-site navigation,
	// so the Strict session cookie comes with the redirect.
	app.post<{ Params: { token: string } }>(
		'/sign-in/:token',
		{ schema: { params: tokenParams }, config: { page: 'signInLink' } },
		async (request, reply) => {
			const session = app.services.sessions.signIn(request.params.token);
			if (request.pageSession) endSession(request, reply);
			startSession(request, reply, session);
			return reply.redirect(pagePaths.keys, 303);
		},
	);

	app.post('/sign-out', { config: { page: 'signedIn' } }, async (request, reply) => {
		endSession(request, reply);
		return reply.type(htmlType).send(signedOutPage());
	});
}
