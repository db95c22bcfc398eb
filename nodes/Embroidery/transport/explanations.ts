import type { FailedRequest } from './routes';
import { generalAdvice } from './nextSteps';
import { rateLimitExplanation } from './rateLimit';
import type { Explanation } from './nextSteps';
import { ApiErrorBodySchema, ValidationErrorBodySchema } from './schemas';

// Reads a failed answer: the API's message and field messages, and which explanation applies to it.

/** The API's own message, whatever the body's shape. */
export function apiMessageOf(body: unknown): string | undefined {
	const parsed = ApiErrorBodySchema.safeParse(body);
	if (parsed.success) return parsed.data.message;
	if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 300);
	return undefined;
}

/** Each field's messages from a 422 body, one line per field: `format: must differ from the source format`. */
export function fieldMessagesOf(body: unknown): string[] {
	const parsed = ValidationErrorBodySchema.safeParse(body);
	if (!parsed.success) return [];
	return Object.entries(parsed.data.errors).map(
		([field, messages]) => `${field}: ${messages.join('; ')}`,
	);
}

/**
 * What a failing status means for the user and what to do next: the route's own meaning where it has one
 * (routes.ts), else the general one; the words are in nextSteps.ts.
 */
export function explain(
	status: number,
	request: FailedRequest,
	apiMessage: string,
	body: unknown,
): { message: string; description: string } {
	const { failures } = request;
	const said = ({ title, description }: Explanation) => ({
		message: `${title}: ${apiMessage}`,
		description,
	});
	switch (status) {
		case 401:
			return said(generalAdvice[401]);
		case 403:
			return said(failures.statuses?.[403] ?? generalAdvice[403](request.ability));
		case 404:
			return said(generalAdvice[404]);
		case 409:
			return said(failures.statuses?.[409] ?? generalAdvice.otherStatus(status));
		case 410:
			return said(failures.statuses?.[410] ?? generalAdvice[410]);
		case 422:
			return said({
				title: generalAdvice[422].title,
				description:
					generalAdvice[422].description(fieldMessagesOf(body)) + (failures.rejectedAlso ?? ''),
			});
		case 429:
			return said(rateLimitExplanation(request));
		default: {
			if (status < 500) return said(generalAdvice.otherStatus(status));
			const unknown = failures.outcomeMayBeUnknown;
			return said(
				unknown
					? { title: unknown.failedTitle, description: unknown.failedDescription }
					: generalAdvice.serverFailed(request.attempts),
			);
		}
	}
}
