import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

import type { SandboxServices } from '../../services';
import type { RateLimiter } from '../rateLimits';

declare module 'fastify' {
	interface FastifyInstance {
		/** The sandbox's state and behaviour; handlers reach everything through it. */
		services: SandboxServices;
		/** The rolling-window counters behind every 429 (per key and per network address). */
		limiter: RateLimiter;
	}
}

/** Makes the services and the rate limiter reachable from every route as `app.services`, `app.limiter`. */
export const servicesPlugin = fp(
	async (app: FastifyInstance, options: { services: SandboxServices; limiter: RateLimiter }) => {
		app.decorate('services', options.services);
		app.decorate('limiter', options.limiter);
	},
	{ name: 'sandbox-services' },
);
