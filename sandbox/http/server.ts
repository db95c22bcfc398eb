import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';

import type { SandboxServices } from '../services';
import { installErrorHandlers } from './errors';
import { installFaults } from './faults';
import { multipartLimits } from './multipart';
import { RateLimiter } from './rateLimits';
import { controlRoutes } from './routes/control';
import { v1Routes } from './routes/v1';

/** The sandbox's HTTP face: v1 under /api/v1, the control API under /__sandbox. */
export async function buildServer(
	services: SandboxServices,
	logger = false,
): Promise<FastifyInstance> {
	const app = Fastify({ logger, bodyLimit: 1024 * 1024, forceCloseConnections: true });
	const limiter = new RateLimiter(services.clock);

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
	// Other bodies are read and dropped, so the route can answer 422 rather than 415.
	app.addContentTypeParser('*', (_request, payload, done) => {
		payload.resume();
		payload.on('end', () => done(null, undefined));
	});
	await app.register(multipart, { limits: multipartLimits, throwFileSizeLimit: false });
	installErrorHandlers(app);
	installFaults(app, services);
	await app.register(v1Routes(services, limiter), { prefix: '/api/v1' });
	await app.register(controlRoutes(services, limiter), { prefix: '/__sandbox' });
	return app;
}
