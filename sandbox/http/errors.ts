import type { FastifyError, FastifyInstance } from 'fastify';

import { ApiError, RateLimitedError, ValidationError } from '../services/errors';

/** Every error leaves as `{ message }`, or `{ message, errors }` for 422, with the spec's statuses. */
export function installErrorHandlers(app: FastifyInstance): void {
	app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
		// Refused before its body was read (401, 413...): close rather than drain the rest of the upload.
		if (!request.raw.complete) reply.header('Connection', 'close');
		if (error instanceof ValidationError) {
			return reply.code(422).send({ message: error.message, errors: error.errors });
		}
		if (error instanceof RateLimitedError) {
			return reply
				.code(429)
				.header('Retry-After', String(error.retryAfterSeconds))
				.send({ message: error.message });
		}
		if (error instanceof ApiError) return reply.code(error.status).send({ message: error.message });
		// A path parameter outside its schema (a workflow other than the two) names no resource.
		if ((error as FastifyError).validationContext === 'params') {
			return reply
				.code(404)
				.send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
		}
		const status = (error as FastifyError).statusCode ?? 500;
		if (status >= 500) {
			request.log.error(error);
			return reply.code(500).send({ message: 'The sandbox hit an internal error; see its log.' });
		}
		return reply.code(status).send({ message: error.message });
	});
	installNotFoundHandler(app);
}

/** 404 `{ message }`; set again in a scope whose hooks unknown paths under its prefix must pass. */
export function installNotFoundHandler(app: FastifyInstance): void {
	app.setNotFoundHandler((request, reply) => {
		reply.code(404).send({ message: `No route ${request.method} ${request.url.split('?')[0]}.` });
	});
}
