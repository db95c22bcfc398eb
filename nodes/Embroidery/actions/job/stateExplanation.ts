import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { fetchJob } from '../../helpers/jobSnapshot';
import { jobAdvice } from '../../transport';
import type { JobRef } from '../../transport';

/**
 * A 409 says the job's state forbids the action; looking the job up lets the error name that
 * state. When the look-up itself fails, the original error stands.
 */
export async function withCurrentState(
	context: IExecuteFunctions,
	error: unknown,
	ref: JobRef,
	itemIndex: number,
): Promise<unknown> {
	if (!(error instanceof NodeApiError) || error.httpCode !== '409') return error;
	// The node refused before sending, from the state it had just seen: the message already names it.
	if (error.context.jobStatus !== undefined) return error;
	let status: string;
	try {
		status = (await fetchJob(context, ref, itemIndex)).status;
	} catch {
		return error;
	}
	return new NodeApiError(
		context.getNode(),
		{ message: error.message, httpCode: '409', status },
		{
			message: jobAdvice.inState(error.message, ref, status),
			description: error.description ?? undefined,
			httpCode: '409',
			itemIndex,
		},
	);
}
