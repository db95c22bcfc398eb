import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Applies the control API's injected faults to the scope's (v1) requests, before they are authenticated or run. */
export const faultsPlugin = fp(
	async (app: FastifyInstance) => {
		app.addHook('onRequest', async (request, reply) => {
			const faults = app.services.faults;
			if (faults.latencyMs > 0) await app.services.clock.sleep(faults.latencyMs);
			if (Math.random() < faults.dropRate) {
				request.raw.socket.destroy();
				return reply.hijack();
			}
			if (Math.random() < faults.rate429) {
				return reply
					.code(429)
					.header('Retry-After', '1')
					.send({ message: 'Too many requests (injected fault).' });
			}
			if (Math.random() < faults.rate5xx) {
				return reply.code(503).send({ message: 'Service unavailable (injected fault).' });
			}
		});
	},
	{ name: 'sandbox-faults', dependencies: ['sandbox-services'] },
);
