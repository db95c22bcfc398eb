import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';

import type { SandboxServices } from '../services';
import { installErrorHandlers, installNotFoundHandler } from './errors';
import { installFaults } from './faults';
import { multipartLimits, refuseOversizedMultipart } from './multipart';
import { RateLimiter, defaultNetworkRateLimit, rateLimits } from './rateLimits';
import { controlRoutes } from './routes/control';
import { v1Routes } from './routes/v1';

export interface ServerOptions {
	logger?: boolean;
	/** v1 requests per minute per client address, counted before the key; 0 turns the ceiling off. */
	networkRateLimit?: number;
}

/** The sandbox's HTTP face: v1 under /api/v1, the control API under /__sandbox. */
export async function buildServer(
	services: SandboxServices,
	options: ServerOptions = {},
): Promise<FastifyInstance> {
	const app = Fastify({
		logger: options.logger ?? false,
		bodyLimit: 1024 * 1024,
		forceCloseConnections: true,
	});
	const limiter = new RateLimiter(services.clock);
	const networkLimit = options.networkRateLimit ?? defaultNetworkRateLimit;
	refuseOversizedMultipart(app);
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
	// Hooks of this scope run for exactly the requests the router sends to v1 (percent-encoded paths
	// included), and for its unknown paths: the ceiling and the faults see what routing sees.
	await app.register(
		async (v1) => {
			if (networkLimit > 0) {
				v1.addHook('onRequest', async (request) => {
					limiter.take(
						`network:${request.ip}`,
						networkLimit,
						`Too many requests from this network address: at most ${networkLimit} per ${rateLimits.windowSeconds} seconds, whatever the API key.`,
					);
				});
			}
			installFaults(v1, services);
			installNotFoundHandler(v1);
			await v1.register(v1Routes(services, limiter));
		},
		{ prefix: '/api/v1' },
	);
	await app.register(controlRoutes(services, limiter), { prefix: '/__sandbox' });
	return app;
}
