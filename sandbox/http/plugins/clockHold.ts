import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A v1 request holds the sandbox's clock from when it is taken up (after any injected latency, which is a
 * wait on that clock) until its answer has gone or its connection closed: a driven clock never skips time
 * while the sandbox is answering.
 */
export const clockHoldPlugin = fp(
	async (app: FastifyInstance) => {
		app.addHook('onRequest', async (_request, reply) => {
			reply.raw.once('close', app.services.clock.hold());
		});
	},
	{ name: 'sandbox-clock-hold', dependencies: ['sandbox-services'] },
);
