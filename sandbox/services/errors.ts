/** A refusal the API reports to the client; `status` is the HTTP status of the spec's error table. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export class UnauthenticatedError extends ApiError {
	constructor(message = 'Unauthenticated.') {
		super(401, message);
	}
}

export class ForbiddenError extends ApiError {
	constructor(message: string) {
		super(403, message);
	}
}

export class NotFoundError extends ApiError {
	constructor(message: string) {
		super(404, message);
	}
}

export class ConflictError extends ApiError {
	constructor(message: string) {
		super(409, message);
	}
}

export class SourceExpiredError extends ApiError {
	constructor(
		message = 'The private source upload has expired. Upload the file again in a new job.',
	) {
		super(410, message);
	}
}

/** 422 with messages per field, like `{ format: ['...'] }`. */
export class ValidationError extends ApiError {
	constructor(
		readonly errors: Record<string, string[]>,
		message?: string,
	) {
		super(422, message ?? summarise(errors));
	}
}

/** Collects messages per field, so one 422 says everything that is wrong with a request. */
export class FieldErrors {
	private readonly messages: Record<string, string[]> = {};

	/** Bound, so a check can be handed `errors.add` as its way to report. */
	readonly add = (field: string, message: string): void => {
		(this.messages[field] ??= []).push(message);
	};

	/** Ends a check: one ValidationError with every message collected, when there is any. */
	throwIfAny(): void {
		if (Object.keys(this.messages).length) throw new ValidationError(this.messages);
	}
}

export class RateLimitedError extends ApiError {
	constructor(
		readonly retryAfterSeconds: number,
		message = 'Too many requests. Try again later.',
	) {
		super(429, message);
	}
}

function summarise(errors: Record<string, string[]>): string {
	const messages = Object.values(errors).flat();
	if (messages.length === 0) return 'The given data was invalid.';
	const extra = messages.length - 1;
	return extra > 0
		? `${messages[0]} (and ${extra} more error${extra > 1 ? 's' : ''})`
		: messages[0];
}
