import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';

import type { SandboxServices } from '../services';
import { installErrorHandlers } from './errors';
import { answerAfterTheBody, multipartLimits, refuseOversizedMultipart } from './multipart';
import { servicesPlugin } from './plugins/services';
import { RateLimiter, defaultNetworkRateLimit } from './rateLimits';
import { accountPages } from './routes/accountPages';
import { controlRoutes } from './routes/control';
import { v1Routes } from './routes/v1';

/** The idle time the server announces in "Keep-Alive: timeout=": Node's own default, not fastify's 72 s. */
export const announcedKeepAliveMs = 5_000;
/** The largest body other than a job request's multipart form. */
const bodyLimit = 1024 * 1024;
/** How long past its announced keep-alive timeout the server keeps an idle connection open. */
export const idleSocketGraceMs = 30_000;

export interface ServerOptions {
	logger?: boolean;
	/** v1 requests per minute per client address, counted before the key; 0 turns the ceiling off. */
	networkRateLimit?: number;
}

/** The sandbox's HTTP face: v1 under /api/v1, the account pages under /account, the control API under /__sandbox. */
export async function buildServer(
	services: SandboxServices,
	options: ServerOptions = {},
): Promise<FastifyInstance> {
	const app = Fastify({
		logger: options.logger ?? false,
		bodyLimit,
		forceCloseConnections: true,
		keepAliveTimeout: announcedKeepAliveMs,
	});
	// An idle keep-alive connection is ended by the client, never under its feet: the server announces
	// "Keep-Alive: timeout=5" and clients drop an idle socket a little before that, but a client whose event
	// loop lags (a busy machine) can send on a socket at the moment the server closes it ("other side
	// closed"). Node (24) keeps the socket this much longer than it announces; older Nodes ignore it.
	Object.assign(app.server, { keepAliveTimeoutBuffer: idleSocketGraceMs });
	await app.register(servicesPlugin, { services, limiter: new RateLimiter(services.clock) });
	refuseOversizedMultipart(app);
	answerAfterTheBody(app, bodyLimit);

	// Clients often send POSTs without a body but with a JSON content type; that is not an error here.
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
		const text = String(body).trim();
		if (text === '') return done(null, undefined);
		try {
			done(null, JSON.parse(text));
		} catch {
			done(Object.assign(new Error('The body is not valid JSON.'), { statusCode: 400 }), undefined);
		}
	});
	// Other bodies are read (within bodyLimit, else 413) and dropped, so the route can answer 422 rather than 415.
	app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) =>
		done(null, undefined),
	);
	await app.register(multipart, { limits: multipartLimits, throwFileSizeLimit: false });
	installErrorHandlers(app);
	await app.register(v1Routes, {
		prefix: '/api/v1',
		networkRateLimit: options.networkRateLimit ?? defaultNetworkRateLimit,
	});
	await app.register(accountPages, { prefix: '/account' });
	await app.register(controlRoutes, { prefix: '/__sandbox' });
	return app;
}
