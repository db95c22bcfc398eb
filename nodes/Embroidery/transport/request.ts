import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import type { ZodTypeAny, z } from 'zod';

import { credentialsOf } from './context';
import type { EmbroideryContext } from './context';
import { redact, unexpectedResponseError } from './errors';
import { defaultRetryPolicy } from './retryPolicy';
import type { HttpMethod, RetryPolicy } from './retryPolicy';
import { describeSchemaProblem } from './schemas';
import { send } from './send';

export interface ApiRequest<S extends ZodTypeAny> {
	method: HttpMethod;
	/** Below the base URL, starting with a slash: `/jobs/conversion/01H...`. */
	path: string;
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
	const described = { method: request.method, path: request.path, itemIndex: request.itemIndex };
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		headers: { Accept: 'application/json' },
		json: true,
	};
	if (request.qs) options.qs = request.qs;
	if (request.body) options.body = request.body;
	const response = await send(this, options, described, secrets, request.retryPolicy ?? defaultRetryPolicy);
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
	call<S extends ZodTypeAny>(context: EmbroideryContext, request: ApiRequest<S>): Promise<z.output<S>>;
}

/** Calls the JSON API and checks the answer against its zod schema. */
export const embroideryApiRequest = apiRequest as EmbroideryApiRequest;
