import type { FastifyInstance } from 'fastify';

import { htmlType, pagePaths } from '../../pages/layout';
import { signedInPage, signedOutPage, signInHintPage } from '../../pages/messagePages';
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

	// The link uses itself up and opens a session; a second click, or one after 15 minutes, gets a page saying so.
	app.get<{ Params: { token: string } }>(
		'/sign-in/:token',
		{ schema: { params: tokenParams }, config: { page: 'anyone' } },
		async (request, reply) => {
			const session = app.services.sessions.signIn(request.params.token);
			if (request.pageSession) endSession(request, reply);
			startSession(request, reply, session);
			// A browser withholds a Strict cookie from the redirect of a navigation another site started (a link in
			// n8n on localhost, a chat, a mail): then this page goes on to the keys itself, as a same-site navigation.
			if (request.headers['sec-fetch-site'] === 'cross-site') {
				return reply.type(htmlType).send(signedInPage());
			}
			return reply.redirect(pagePaths.keys, 303);
		},
	);

	app.post('/sign-out', { config: { page: 'signedIn' } }, async (request, reply) => {
		endSession(request, reply);
		return reply.type(htmlType).send(signedOutPage());
	});
}
