import { ApiErrorBodySchema, ValidationErrorBodySchema } from './schemas';
import type { FailedRequest } from './errors';

// What each failing status means for the user and what to do next, in the user's words.

/** What to do after an unlock whose outcome the node cannot know; it never sends the unlock again by itself. */
export const unlockUnknownAdvice =
	'The request may have reached the service and spent an entitlement or credits, so the node ' +
	'did not send it again. Check the job with Job > Get (downloadsUnlocked) before unlocking it again.';

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

export function explain(
	status: number,
	request: FailedRequest,
	apiMessage: string,
	body: unknown,
): { message: string; description: string } {
	const { action } = request;
	switch (status) {
		case 401:
			return {
				message: `Authentication failed: ${apiMessage}`,
				description:
					'The API key is missing, invalid, expired or revoked. Create a new key and update ' +
					'the Embroidery API credential.',
			};
		case 403:
			if (action === 'downloadFile') {
				return {
					message: `The file link was refused: ${apiMessage}`,
					description:
						'Signed file links expire soon after the service hands them out. Job > Download ' +
						"(and 'Download Results') fetch fresh links from the job and use those, so take " +
						'the file from there, or run Job > Get for new links. A locked machine file also ' +
						'needs Job > Unlock first; files of another account are never served.',
				};
			}
			return {
				message: `Forbidden: ${apiMessage}`,
				description:
					`This request needs the "${request.ability}" ability, or the job or file belongs to ` +
					`another account. Use a key with that ability, and only job ids your key's account owns.`,
			};
		case 404:
			return {
				message: `Not found: ${apiMessage}`,
				description:
					'Check the job id and its workflow (conversion or digitising): both must match the ' +
					"job, and a key only sees its own account's jobs.",
			};
		case 409:
			return action === 'unlockJob'
				? {
						message: `The job can't be unlocked yet: ${apiMessage}`,
						description:
							'Only completed jobs can be unlocked. Run Job > Wait for Completion first; a ' +
							'failed job needs Job > Retry.',
					}
				: {
						message: `The job can't be retried: ${apiMessage}`,
						description:
							'Only failed jobs can be retried. A queued or processing job is still running ' +
							'(use Job > Wait for Completion); a completed job is finished and can be downloaded.',
					};
		case 410:
			return action === 'retryJob'
				? {
						message: `The job's source file has expired: ${apiMessage}`,
						description:
							"The service no longer keeps the uploaded source, so this job can't be retried. " +
							'Create a new job from the original file.',
					}
				: {
						message: `The file has expired: ${apiMessage}`,
						description:
							'The service no longer keeps this file. Create a new job from the original file to get it again.',
					};
		case 422: {
			const fields = fieldMessagesOf(body);
			const quotaHint =
				action === 'unlockJob'
					? ' Unlocking needs a subscription entitlement or enough credits on the account (see Account > Get Usage).'
					: '';
			return {
				message: `The service rejected the request: ${apiMessage}`,
				description:
					(fields.length > 0
						? `Fix these fields: ${endSentence(fields.join(' | '))}`
						: 'Check the fields and files sent.') + quotaHint,
			};
		}
		case 429:
			return {
				message: `Rate limit exceeded: ${apiMessage}`,
				description:
					request.retryAfterSeconds !== undefined
						? `The service asks to wait ${request.retryAfterSeconds} s, longer than the node ` +
							`waits within an execution. Run again later.`
						: `The service still refused after ${request.attempts} tries with waits in between. ` +
							`Wait a minute and run again, or process fewer items at once.`,
			};
		default:
			if (status >= 500) {
				return {
					message:
						action === 'unlockJob'
							? `Unlock state unknown: the service failed while unlocking: ${apiMessage}`
							: `The service failed: ${apiMessage}`,
					description:
						action === 'unlockJob'
							? unlockUnknownAdvice
							: request.method === 'POST'
								? 'The request was not repeated automatically because the service may already ' +
									'have acted on it. Check Job > Get Many before trying again.'
								: `The service kept failing after ${request.attempts} tries. Try again later.`,
				};
			}
			return {
				message: `Request failed: ${apiMessage}`,
				description:
					`The service answered HTTP ${status}. Check this item's parameters, and that the ` +
					`credential's 'Base URL' points to the v1 API.`,
			};
	}
}

/** The text with a full stop at its end, unless it ends a sentence already ("…or JEF)." stays as it is). */
export function endSentence(text: string): string {
	return /[.!?]\)?$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
