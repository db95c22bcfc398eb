import type { FastifyInstance, FastifyRequest } from 'fastify';

import { abilities } from '../../../domain/accounts';
import { ValidationError } from '../../../services/errors';
import { keyLifetimesDays, keysPage, type KeysPageView } from '../../pages/keysPage';
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

/** The API keys page: the account's keys, creating one (shown once) and revoking one. */
export async function keyPageRoutes(app: FastifyInstance): Promise<void> {
	const { auth, clock } = app.services;
	const view = (request: FastifyRequest, extra: Partial<KeysPageView> = {}) => {
		const { accountId, csrfToken } = sessionOf(request);
		return keysPage({ csrfToken, keys: auth.keysOf(accountId), now: clock.now(), ...extra });
	};

	app.get('/keys', { config: { page: 'signedIn' } }, async (request, reply) =>
		reply.type(htmlType).send(view(request)),
	);

	// The new key is in this answer only (201, never cached): it is not kept anywhere to show again.
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
			const { accountId } = sessionOf(request);
			const { key } = auth.createKey(
				accountId,
				request.body.abilities,
				Number(request.body.expiresInDays) * 24 * 60 * 60,
			);
			return reply
				.code(201)
				.type(htmlType)
				.send(view(request, { newKey: { key }, chosen }));
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
