import type { FastifyInstance } from 'fastify';

import { installNotFoundHandler } from '../errors';
import { callerPlugin } from '../plugins/caller';
import { clockHoldPlugin } from '../plugins/clockHold';
import { faultsPlugin } from '../plugins/faults';
import { networkCeilingPlugin } from '../plugins/networkCeiling';
import { formatRoutes } from './formats';
import { jobRoutes } from './jobs';
import { uploadRoutes } from './uploads';
import { usageRoutes } from './usage';

/**
 * The spec's v1 API, mounted under /api/v1. Its hooks run for exactly the requests the router sends
 * here (percent-encoded paths included) and for its unknown paths: the network ceiling, then the
 * injected faults, then the hold on the sandbox's clock, then the caller (key, per-key limits, ability)
 * before validation and the handler.
 */
export async function v1Routes(app: FastifyInstance, options: { networkRateLimit: number }) {
	await app.register(networkCeilingPlugin, { limit: options.networkRateLimit });
	await app.register(faultsPlugin);
	await app.register(clockHoldPlugin);
	await app.register(callerPlugin);
	installNotFoundHandler(app);
	// A v1 route without an ability would be open to anyone: refuse to build it.
	app.addHook('onRoute', (route) => {
		if (!route.config?.ability) {
			throw new Error(`The v1 route ${route.method} ${route.url} states no ability in its config.`);
		}
	});
	await app.register(formatRoutes);
	await app.register(usageRoutes);
	await app.register(jobRoutes);
	await app.register(uploadRoutes);
}
