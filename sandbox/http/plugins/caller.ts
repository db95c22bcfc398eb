import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import type { Ability } from '../../domain/accounts';
import type { Caller } from '../../services/auth';
import { ForbiddenError } from '../../services/errors';
import { rateLimits } from '../rateLimits';

/** The tighter per-key limits a route can add to the general one. */
export type RouteRateLimit = 'general' | 'jobCreation' | 'unlock';

declare module 'fastify' {
	interface FastifyContextConfig {
		/** The ability an API key needs for this route (403 without it). */
		ability?: Ability;
		/** Which per-key rate limit applies besides the general one; `general` alone by default. */
		rateLimit?: RouteRateLimit;
	}
	interface FastifyRequest {
		/**
		 * The caller whose key was accepted, set before its rate limits and ability are checked: a job form refused
		 * with a 429 or 403 is still read to its end, so that its client gets that answer (http/multipart.ts).
		 */
		caller: Caller | null;
	}
}

const limitMessages: Record<Exclude<RouteRateLimit, 'general'>, string> = {
	jobCreation: `Too many job creation requests: at most ${rateLimits.jobCreation} per minute per API key.`,
	unlock: `Too many unlock requests: at most ${rateLimits.unlock} per minute per API key.`,
};

/**
 * Before validation and the handler of every route whose `config` states an ability: the key (401),
 * the per-key rate limits (429), then the ability (403), so nothing runs for a refused caller.
 */
export const callerPlugin = fp(
	async (app: FastifyInstance) => {
		app.decorateRequest('caller', null);
		app.addHook('preValidation', async (request: FastifyRequest) => {
			const { ability, rateLimit = 'general' } = request.routeOptions.config;
			if (!ability) return;
			const caller = app.services.auth.authenticate(request.headers.authorization);
			request.caller = caller;
			app.limiter.take(
				`general:${caller.keyId}`,
				rateLimits.general,
				`Too many requests: at most ${rateLimits.general} per minute per API key.`,
			);
			if (rateLimit !== 'general') {
				app.limiter.take(
					`${rateLimit}:${caller.keyId}`,
					rateLimits[rateLimit],
					limitMessages[rateLimit],
				);
			}
			if (!caller.abilities.includes(ability)) {
				throw new ForbiddenError(`This API key lacks the "${ability}" ability.`);
			}
		});
	},
	{ name: 'sandbox-caller', dependencies: ['sandbox-services'] },
);

/** The authenticated caller; only inside a route whose `config` states an ability. */
export function callerOf(request: FastifyRequest): Caller {
	if (!request.caller) throw new Error(`Route ${request.routeOptions.url} states no ability.`);
	return request.caller;
}
