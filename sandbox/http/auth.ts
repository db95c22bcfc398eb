import type { FastifyRequest } from 'fastify';

import type { Ability, Caller } from '../services/accounts';
import { ForbiddenError } from '../services/errors';
import type { SandboxServices } from '../services';
import { rateLimits, type RateLimiter } from './rateLimits';

declare module 'fastify' {
	interface FastifyRequest {
		caller?: Caller;
	}
}

export type ExtraLimit = 'jobCreation' | 'unlock';

/**
 * Runs before every v1 handler: the key (401), the per-key rate limits (429), then the
 * route's ability (403), all before the operation starts.
 */
export function authorise(
	services: SandboxServices,
	limiter: RateLimiter,
	ability: Ability,
	extra?: ExtraLimit,
) {
	return async (request: FastifyRequest): Promise<void> => {
		const caller = services.accounts.authenticate(request.headers.authorization);
		limiter.take(
			`general:${caller.keyId}`,
			rateLimits.general,
			`Too many requests: at most ${rateLimits.general} per minute per API key.`,
		);
		if (extra === 'unlock') {
			limiter.take(
				`unlock:${caller.keyId}`,
				rateLimits.unlock,
				`Too many unlock requests: at most ${rateLimits.unlock} per minute per API key.`,
			);
		}
		if (extra === 'jobCreation') {
			limiter.take(
				`jobs:${caller.keyId}`,
				rateLimits.jobCreation,
				`Too many job creation requests: at most ${rateLimits.jobCreation} per minute per API key.`,
			);
		}
		if (!caller.abilities.includes(ability)) {
			throw new ForbiddenError(`This API key lacks the "${ability}" ability.`);
		}
		request.caller = caller;
	};
}

/** The authenticated caller; only valid inside a route guarded by `authorise`. */
export function callerOf(request: FastifyRequest): Caller {
	if (!request.caller) throw new Error('Route is missing its authorise() guard.');
	return request.caller;
}
