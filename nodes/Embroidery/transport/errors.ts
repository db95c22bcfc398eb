import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { apiMessageOf, explain, fieldMessagesOf } from './explanations';
import { checkTheJobFirst, generalAdvice } from './nextSteps';
import type { FailedRequest } from './routes';

/** Removes every secret from a text that is about to reach the user, a log or an output item. */
export function redact(text: string, secrets: readonly string[]): string {
	let clean = text;
	for (const secret of secrets) {
		if (secret.length >= 4) clean = clean.split(secret).join('[redacted]');
	}
	return clean.replace(/Bearer\s+[^\s"',;]+/gi, 'Bearer [redacted]');
}

/** Turns a non-2xx answer into the error the user sees: HTTP code, the API's message, what to do next. */
export function apiErrorFromResponse(
	node: INode,
	status: number,
	body: unknown,
	request: FailedRequest,
	secrets: readonly string[],
): NodeApiError {
	const apiMessage = redact(apiMessageOf(body) ?? `HTTP ${status}`, secrets);
	const { message, description } = explain(status, request, apiMessage, body);
	const fields = fieldMessagesOf(body).map((line) => redact(line, secrets));
	const errorResponse: JsonObject = {
		message: redact(message, secrets),
		httpCode: String(status),
		request: `${request.method} ${request.path}`,
	};
	if (fields.length > 0) errorResponse.fieldErrors = fields;
	const error = new NodeApiError(node, errorResponse, {
		message: redact(message, secrets),
		description: redact(description, secrets),
		httpCode: String(status),
		itemIndex: request.itemIndex,
	});
	if (request.retryAfterSeconds !== undefined)
		error.context.retryAfterSeconds = request.retryAfterSeconds;
	return error;
}

/** The Retry-After the service gave with an error it was not waited out for, in ms; undefined when none. */
export function retryAfterMsOf(error: unknown): number | undefined {
	const seconds = error instanceof NodeApiError ? error.context.retryAfterSeconds : undefined;
	return typeof seconds === 'number' ? seconds * 1000 : undefined;
}

/**
 * Whether a request that failed may well answer when sent again later: it got no answer, a 5xx or a 429.
 * A refusal of the key (401, 403) or of the request itself (another 4xx, an answer of unknown shape) will not.
 */
export function mayAnswerLater(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = error.httpCode ?? undefined;
	return status === undefined || status === '429' || /^5\d\d$/.test(status);
}

/**
 * The milliseconds of the request's own time limit when that is what ended it, else undefined: n8n reports
 * a time limit only as an aborted connection, "timeout of N ms exceeded".
 */
export function timeLimitOf(cause: unknown): number | undefined {
	const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause.message : '';
	const timeout = /timeout of (\d+)ms exceeded/.exec(
		inner || (cause instanceof Error ? cause.message : ''),
	);
	return timeout ? Number(timeout[1]) : undefined;
}

/** Why a request got no answer, in words. */
function reasonOf(cause: unknown): string {
	const limitMs = timeLimitOf(cause);
	if (limitMs !== undefined) return `no answer within ${limitMs / 1000} s`;
	return cause instanceof Error ? cause.message : String(cause);
}

/** A request that never got an HTTP answer (refused, reset, timed out). */
export function networkError(
	node: INode,
	cause: unknown,
	request: FailedRequest,
	secrets: readonly string[],
): NodeApiError {
	const reason = redact(reasonOf(cause), secrets);
	const unknown = request.failures.outcomeMayBeUnknown;
	const message = unknown ? unknown.lostMessage(reason) : generalAdvice.unreachable.message(reason);
	const description = unknown
		? unknown.lostDescription
		: generalAdvice.unreachable.description(request.attempts);
	return new NodeApiError(
		node,
		{ message, request: `${request.method} ${request.path}` },
		{ message, description, itemIndex: request.itemIndex },
	);
}

/** A file download whose connection was lost midway on every try: no part of the file is kept. */
export function downloadCutOffError(
	node: INode,
	cause: unknown,
	request: FailedRequest,
	secrets: readonly string[],
): NodeApiError {
	const message = `The connection was lost while downloading ${request.path}: ${redact(reasonOf(cause), secrets)}`;
	return new NodeApiError(
		node,
		{ message, request: `${request.method} ${request.path}` },
		{
			message,
			description: generalAdvice.downloadCutOff(request.attempts - 1),
			itemIndex: request.itemIndex,
		},
	);
}

/** A redirect the node will not follow with the API key. */
export function redirectRefusedError(
	node: INode,
	request: Omit<FailedRequest, 'attempts'>,
	target: string,
	reason: string,
): NodeApiError {
	const message = `The service redirected ${request.method} ${request.path} to ${target}: ${reason}`;
	return new NodeApiError(
		node,
		{ message, request: `${request.method} ${request.path}` },
		{
			message,
			description: generalAdvice.redirectRefused,
			itemIndex: request.itemIndex,
		},
	);
}

/** A redirected POST: its body (an upload, an unlock) is never sent again, to any address. */
export function redirectedPostError(
	node: INode,
	request: Omit<FailedRequest, 'attempts'>,
	target: URL,
	status: number,
): NodeApiError {
	const message =
		`The service redirected ${request.method} ${request.path} (HTTP ${status}) ` +
		`to ${target.origin}${target.pathname}; the node did not send it again`;
	return new NodeApiError(
		node,
		{ message, httpCode: String(status), request: `${request.method} ${request.path}` },
		{
			message,
			description: generalAdvice.redirectedPost(
				request.failures.outcomeMayBeUnknown?.checkFirst ?? checkTheJobFirst,
			),
			httpCode: String(status),
			itemIndex: request.itemIndex,
		},
	);
}

/** A 2xx answer whose body does not match the API spec. */
export function unexpectedResponseError(
	node: INode,
	status: number,
	problem: string,
	request: FailedRequest,
): NodeApiError {
	const message = `Unexpected answer from ${request.method} ${request.path}: ${problem}`;
	return new NodeApiError(
		node,
		{ message, httpCode: String(status) },
		{
			message,
			description: generalAdvice.unexpectedAnswer,
			httpCode: String(status),
			itemIndex: request.itemIndex,
		},
	);
}

/** Any thrown value as the node error n8n shows, naming the item; node errors pass through unchanged. */
export function nodeErrorOf(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

/**
 * n8n's guideline: a message about an item ends with `[item N]`. A tag picked up on the way (an error passed
 * from one item to the next) is replaced, so the message names the item it lands on, once, at its end.
 */
export function tagItem<E extends NodeApiError | NodeOperationError>(
	error: E,
	itemIndex: number,
): E {
	error.message = `${error.message.replace(/ \[item \d+\]$/, '')} [item ${itemIndex}]`;
	return error;
}
