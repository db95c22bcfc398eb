import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

import { rateLimits } from '../rateLimits';

/**
 * The spec's network-level ceiling: every request of the scope (v1) counts per client address,
 * before the key is looked at. `limit` 0 turns it off.
 */
export const networkCeilingPlugin = fp(
	async (app: FastifyInstance, { limit }: { limit: number }) => {
		if (limit <= 0) return;
		const message =
			`Too many requests from this network address: at most ${limit} ` +
			`per ${rateLimits.windowSeconds} seconds, whatever the API key.`;
		app.addHook('onRequest', async (request) => {
			app.limiter.take(`network:${request.ip}`, limit, message);
		});
	},
	{ name: 'sandbox-network-ceiling', dependencies: ['sandbox-services'] },
);
