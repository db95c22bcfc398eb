import type { FastifyInstance } from 'fastify';

import { callerOf } from '../plugins/caller';

/** GET /usage: the caller's FreeUsage. */
export async function usageRoutes(app: FastifyInstance): Promise<void> {
	app.get('/usage', { config: { ability: 'usage:read' } }, async (request) => ({
		freeUsage: app.services.billing.freeUsage(callerOf(request).accountId),
	}));
}
