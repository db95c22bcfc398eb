import type { FastifyInstance, FastifyRequest } from 'fastify';

import { abilities } from '../../../domain/accounts';
import { NotFoundError, ValidationError } from '../../../services/errors';
import {
	keyLifetimesDays,
	keyName,
	keysPage,
	revokeKeyPage,
	type KeysPageView,
} from '../../pages/keysPage';
import { htmlType, pagePaths } from '../../pages/layout';
import { sessionOf } from '../../plugins/pageSession';

interface CreateKeyForm {
	_csrf: string;
	abilities: string[];
	expiresInDays: string;
}

/** One checked box arrives as a string; fastify's schema coercion turns it into a list of one. */
const createKeyBody = {
	type: 'object',
	required: ['_csrf', 'abilities', 'expiresInDays'],
	properties: {
		_csrf: { type: 'string' },
		abilities: { type: 'array', minItems: 1, items: { type: 'string', enum: abilities } },
		expiresInDays: { type: 'string', enum: keyLifetimesDays },
	},
} as const;

const keyParams = {
	type: 'object',
	required: ['id'],
	properties: { id: { type: 'string', maxLength: 64 } },
} as const;

const formMessages = {
	abilities: `Choose at least one ability: ${abilities.join(', ')}.`,
	expiresInDays: `Choose when the key expires: after ${keyLifetimesDays.join(', ')} days.`,
};

/** The API keys page: the account's keys, creating one (shown once) and revoking one (asked once). */
export async function keyPageRoutes(app: FastifyInstance): Promise<void> {
	const { auth, clock, sessions } = app.services;
	const view = (request: FastifyRequest, extra: Partial<KeysPageView> = {}) => {
		const { accountId, csrfToken } = sessionOf(request);
		return keysPage({ csrfToken, keys: auth.keysOf(accountId), now: clock.now(), ...extra });
	};

	// A key just created is shown by this GET, the one after its form's redirect, and then never again.
	app.get('/keys', { config: { page: 'signedIn' } }, async (request, reply) => {
		const key = sessions.takeNewKey(sessionOf(request).sessionId);
		return reply.type(htmlType).send(view(request, key ? { newKey: { key } } : {}));
	});

	// POST, redirect, GET: a reload of the page that shows the key sends nothing again and creates nothing.
	// The key waits for that GET in memory only (never cached, never stored but as its hash).
	app.post<{ Body: CreateKeyForm }>(
		'/keys',
		{ schema: { body: createKeyBody }, attachValidation: true, config: { page: 'signedIn' } },
		async (request, reply) => {
			const body = request.body as Partial<Record<keyof CreateKeyForm, unknown>>;
			const chosen = {
				abilities: [body.abilities ?? []].flat().map(String),
				expiresInDays: String(body.expiresInDays ?? ''),
			};
			if (request.validationError) {
				const errors = formErrors(request.validationError);
				return reply.code(422).type(htmlType).send(view(request, { errors, chosen }));
			}
			const { accountId, sessionId } = sessionOf(request);
			const { key } = auth.createKey(
				accountId,
				request.body.abilities,
				Number(request.body.expiresInDays) * 24 * 60 * 60,
			);
			sessions.holdNewKey(sessionId, key);
			return reply.redirect(pagePaths.keys, 303);
		},
	);

	// Revoke asks once: its link opens this page (which changes nothing), whose button revokes.
	app.get<{ Params: { id: string } }>(
		'/keys/:id/revoke',
		{ schema: { params: keyParams }, config: { page: 'signedIn' } },
		async (request, reply) => {
			const { accountId, csrfToken } = sessionOf(request);
			const key = auth.keysOf(accountId).find((listed) => listed.id === request.params.id);
			if (!key) throw new NotFoundError(`No key ${request.params.id}.`);
			if (key.revokedAt !== null) return reply.redirect(pagePaths.keys, 303);
			return reply.type(htmlType).send(revokeKeyPage(csrfToken, key.id, keyName(key)));
		},
	);

	app.post<{ Params: { id: string } }>(
		'/keys/:id/revoke',
		{ schema: { params: keyParams }, config: { page: 'signedIn' } },
		async (request, reply) => {
			auth.revokeKeyOf(sessionOf(request).accountId, request.params.id);
			return reply.redirect(pagePaths.keys, 303);
		},
	);
}

/** The form's fields that broke the schema, each with what to do about it. */
function formErrors(
	error: Error & { validation?: Array<{ instancePath: string; params: object }> },
) {
	const errors = new Set<keyof typeof formMessages>();
	for (const problem of error.validation ?? []) {
		const missing = (problem.params as { missingProperty?: string }).missingProperty;
		const field = (missing ?? problem.instancePath.split('/')[1]) as keyof typeof formMessages;
		if (field in formMessages) errors.add(field);
	}
	if (errors.size === 0)
		throw new ValidationError({ body: ['Send the form of the API keys page.'] });
	return Object.fromEntries([...errors].map((field) => [field, [formMessages[field]]]));
}
