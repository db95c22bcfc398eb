import { timingSafeEqual } from 'node:crypto';

import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { NewAccount } from '../../services/accounts';
import { UnauthenticatedError, ValidationError } from '../../services/errors';
import { mergeFaults } from '../../services/faults';
import { signInUrl } from '../pages/layout';

/** The control API for tests and demos, under /__sandbox; not part of v1. */
export async function controlRoutes(app: FastifyInstance): Promise<void> {
	const { services, limiter } = app;
	const expected = Buffer.from(services.adminToken);
	const checkAdmin = async (request: FastifyRequest) => {
		const given = Buffer.from(String(request.headers['x-sandbox-admin'] ?? ''));
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
			throw new UnauthenticatedError('Send the sandbox admin token in the X-Sandbox-Admin header.');
		}
	};

	// Before the body schemas: without the token the answer is 401, whatever the body.
	app.addHook('preValidation', checkAdmin);

	app.post<{ Body: NewAccount }>('/accounts', objectBody, async (request, reply) => {
		const account = services.accounts.createAccount(request.body);
		return reply
			.code(201)
			.send({ id: account.id, freeUsage: services.billing.freeUsage(account.id) });
	});

	app.get<{ Params: { id: string } }>('/accounts/:id', async (request) => ({
		id: request.params.id,
		freeUsage: services.billing.freeUsage(services.accounts.account(request.params.id).id),
	}));

	app.post<{ Params: { id: string } }>('/accounts/:id/sign-in-links', async (request, reply) => {
		const { token, expiresAt } = services.sessions.createSignInLink(request.params.id);
		return reply.code(201).send({
			url: signInUrl(`${request.protocol}://${request.host}`, token),
			expiresAt: new Date(expiresAt).toISOString(),
		});
	});

	app.post<{ Body: { accountId: string; abilities: unknown; expiresInSeconds?: number } }>(
		'/keys',
		objectBody,
		async (request, reply) => {
			const { body } = request;
			return reply
				.code(201)
				.send(services.auth.createKey(body.accountId, body.abilities, body.expiresInSeconds));
		},
	);

	app.delete<{ Params: { id: string } }>('/keys/:id', async (request, reply) => {
		services.auth.revokeKey(request.params.id);
		return reply.code(204).send();
	});

	app.get('/clock', async () => ({ now: new Date(services.clock.now()).toISOString() }));

	app.post<{ Body: { advanceSeconds: unknown } }>('/clock', objectBody, async (request) => {
		// Checked here, not by the schema: fastify's schemas would coerce "5", null, true or [5] into numbers.
		const { advanceSeconds } = request.body;
		if (
			typeof advanceSeconds !== 'number' ||
			!Number.isFinite(advanceSeconds) ||
			advanceSeconds < 0
		) {
			throw new ValidationError({
				advanceSeconds: ['The advanceSeconds must be a number of seconds, 0 or more.'],
			});
		}
		return { now: new Date(services.advanceClock(advanceSeconds)).toISOString() };
	});

	app.get('/faults', async () => ({ faults: services.faults }));

	app.put('/faults', async (request) => {
		services.faults = mergeFaults(services.faults, request.body);
		services.runner.kick();
		return { faults: services.faults };
	});

	app.post('/reset', async (_request, reply) => {
		await services.reset();
		limiter.clear();
		return reply.code(204).send();
	});
}

/** A JSON object body; anything else (none, null, a list, a string) is 422 under `body`. */
const objectBody = {
	schema: { body: { type: 'object' } },
	schemaErrorFormatter: () => new ValidationError({ body: ['Send a JSON object body.'] }),
} as const;
