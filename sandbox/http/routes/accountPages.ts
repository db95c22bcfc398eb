import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import type { FastifyError, FastifyInstance } from 'fastify';

import { ApiError, UnauthenticatedError } from '../../services/errors';
import { SignInLinkRefusedError } from '../../services/sessions';
import { htmlType } from '../pages/layout';
import { problemPage, signInHintPage, signInLinkRefusedPage } from '../pages/messagePages';
import { pageSessionPlugin } from '../plugins/pageSession';
import { assetRoutes } from './account/assets';
import { jobPageRoutes } from './account/jobs';
import { keyPageRoutes } from './account/keys';
import { signInRoutes } from './account/signIn';
import { uploadPageRoutes } from './account/uploads';
import { usagePageRoutes } from './account/usage';

/**
 * The service's own pages, under /account: sign-in through one-time links, API keys, usage and recent
 * jobs, rendered on the server. The headers of a real site on every answer (a CSP that allows no inline
 * script or style, no framing, no referrer, nosniff), the visitor's session and CSRF token checked before
 * anything runs, and every refusal answered with a page, with the API's status.
 */
export async function accountPages(app: FastifyInstance): Promise<void> {
	await app.register(cookie);
	await app.register(formbody);
	await app.register(helmet, {
		contentSecurityPolicy: {
			useDefaults: false,
			directives: {
				defaultSrc: ["'self'"],
				baseUri: ["'none'"],
				formAction: ["'self'"],
				frameAncestors: ["'none'"],
				objectSrc: ["'none'"],
			},
		},
		frameguard: { action: 'deny' },
		// The sandbox answers plain HTTP on loopback; HSTS there would bind other local servers of the name.
		strictTransportSecurity: false,
		referrerPolicy: { policy: 'no-referrer' },
	});
	await app.register(pageSessionPlugin);
	// Pages hold CSRF tokens and, once, a new key: no cache keeps them.
	app.addHook('onRequest', async (_request, reply) => {
		reply.header('Cache-Control', 'no-store');
	});
	installPageErrorHandlers(app);
	// A page that does not say who may open it would be open to anyone: refuse to build it.
	app.addHook('onRoute', (route) => {
		if (!route.config?.page) {
			throw new Error(
				`The account page ${route.method} ${route.url} states no page access in its config.`,
			);
		}
	});
	app.get('/', { config: { page: 'anyone' } }, async (_request, reply) =>
		reply.redirect('/account/keys', 303),
	);
	await app.register(signInRoutes);
	await app.register(keyPageRoutes);
	await app.register(usagePageRoutes);
	await app.register(jobPageRoutes);
	await app.register(uploadPageRoutes);
	await app.register(assetRoutes);
}

function installPageErrorHandlers(app: FastifyInstance): void {
	app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
		reply.type(htmlType);
		const csrfToken = request.pageSession?.csrfToken;
		if (error instanceof SignInLinkRefusedError) {
			return reply.code(error.status).send(signInLinkRefusedPage(error.message));
		}
		if (error instanceof UnauthenticatedError) {
			return reply.code(401).send(signInHintPage(error.message));
		}
		if (error instanceof ApiError) {
			return reply.code(error.status).send(problemPage(error.status, error.message, csrfToken));
		}
		if ((error as FastifyError).validationContext === 'params') {
			return reply.code(404).send(problemPage(404, 'There is no such page.', csrfToken));
		}
		const status = (error as FastifyError).statusCode ?? 500;
		if (status >= 500) {
			request.log.error(error);
			return reply
				.code(500)
				.send(problemPage(500, 'The sandbox hit an internal error; see its log.', csrfToken));
		}
		return reply.code(status).send(problemPage(status, error.message, csrfToken));
	});
	app.setNotFoundHandler((request, reply) =>
		reply
			.code(404)
			.type(htmlType)
			.send(problemPage(404, 'There is no such page.', request.pageSession?.csrfToken)),
	);
}
