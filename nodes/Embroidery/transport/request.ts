import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import type { ZodTypeAny, z } from 'zod';

import { credentialsOf } from './context';
import type { EmbroideryContext } from './context';
import { redact, unexpectedResponseError } from './errors';
import { defaultRetryPolicy } from './retryPolicy';
import type { RetryPolicy } from './retryPolicy';
import type { Route } from './routes';
import { describeSchemaProblem } from './schemas';
import { send } from './send';
import { timeLimits } from './timeLimits';

/** A route from `routes` (what the request is) plus what to send and how to read the answer. */
export interface ApiRequest<S extends ZodTypeAny> extends Route {
	schema: S;
	body?: FormData;
	qs?: IDataObject;
	itemIndex?: number;
	retryPolicy?: RetryPolicy;
}

async function apiRequest<S extends ZodTypeAny>(
	this: EmbroideryContext,
	request: ApiRequest<S>,
): Promise<z.output<S>> {
	const { apiKey, baseUrl } = await credentialsOf(this);
	const secrets = [apiKey];
	const described = {
		method: request.method,
		path: request.path,
		action: request.action,
		ability: request.ability,
		carriesUpload: request.carriesUpload,
		signedFileLink: request.signedFileLink,
		failures: request.failures,
		itemIndex: request.itemIndex,
	};
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		headers: { Accept: 'application/json' },
		json: true,
	};
	if (request.qs) options.qs = request.qs;
	if (request.body) options.body = request.body;
	const response = await send(this, options, described, {
		secrets,
		policy: request.retryPolicy ?? defaultRetryPolicy,
		origin: new URL(baseUrl).origin,
		// In all, not between bytes: an answer trickled a byte at a time is cut off as one that never came.
		answerMs: request.carriesUpload ? timeLimits.uploadMs : timeLimits.jsonMs,
	});
	const parsed = request.schema.safeParse(response.body);
	if (!parsed.success) {
		throw unexpectedResponseError(
			this.getNode(),
			response.statusCode,
			redact(describeSchemaProblem(parsed.error), secrets),
			{ ...described, attempts: 1 },
		);
	}
	return parsed.data as z.output<S>;
}

/** `embroideryApiRequest.call(context, request)` keeps the schema's type (a plain `.call` would lose it). */
export interface EmbroideryApiRequest {
	<S extends ZodTypeAny>(this: EmbroideryContext, request: ApiRequest<S>): Promise<z.output<S>>;
	call<S extends ZodTypeAny>(
		context: EmbroideryContext,
		request: ApiRequest<S>,
	): Promise<z.output<S>>;
}

/** Calls the JSON API and checks the answer against its zod schema. */
export const embroideryApiRequest = apiRequest as EmbroideryApiRequest;
