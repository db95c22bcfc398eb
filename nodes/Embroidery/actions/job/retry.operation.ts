import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { earlierRetriesOf, refusedBeforeActing } from '../../helpers/earlierTries';
import { jobsError } from '../../helpers/jobErrors';
import { jobRefOf, notFoundAnywhere } from '../../helpers/jobLocator';
import {
	RetryResponseSchema,
	earlierTryAdvice,
	embroideryApiRequest,
	nodeErrorOf,
	routes,
} from '../../transport';
import type { JobRef } from '../../transport';
import { textForEachVersion } from '../types';
import type { OperationOption, OperationOutput } from '../types';
import { jobFieldsToFill, jobLocatorFields, jobRefFields } from './fields';
import { withCurrentState } from '../../helpers/jobStateOnConflict';

export const option: OperationOption = {
	name: 'Retry',
	description: 'Queue a failed job again',
	action: 'Retry job',
};

export const description = [...jobRefFields, ...jobLocatorFields()];

/** Finding a job's workflow may list the recent jobs; a refusal is explained with the job's current state. */
export const routesCalled = ['listJobs', 'getJob', 'retryJob'] as const;

export const toolDescription = textForEachVersion(
	(version) =>
		'Queues a failed job again, for example after engine_error, while its source is kept (24 ' +
		`hours). Free. ${jobFieldsToFill(version)}`,
);

/** An earlier try of this execution sent the retry and lost its answer: a second one could run (and count) again. */
function retryNotSentAgain(
	context: IExecuteFunctions,
	ref: JobRef,
	itemIndex: number,
	reason: string,
): NodeOperationError {
	const error = new NodeOperationError(
		context.getNode(),
		`An earlier try of this node sent the retry of job ${ref.id} and got no answer; it was not sent again`,
		{
			itemIndex,
			description: earlierTryAdvice.retry(ref, reason),
		},
	);
	return jobsError(error, [ref]);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const { ref, located } = await jobRefOf(this, itemIndex);
	// n8n's Retry On Fail runs this again: a retry an earlier try sent is answered from memory, never sent twice.
	const earlier = earlierRetriesOf(this);
	const before = earlier.of(itemIndex, ref);
	if (before?.outcome === 'retried') return [{ json: before.json }];
	if (before?.outcome === 'unknown') throw retryNotSentAgain(this, ref, itemIndex, before.reason);
	earlier.sending(itemIndex, ref);
	try {
		const answer = await embroideryApiRequest.call(this, {
			...routes.retryJob(ref),
			schema: RetryResponseSchema,
			itemIndex,
		});
		const json = {
			...answer.job,
			id: answer.job.id,
			workflow: answer.job.workflow,
			message: answer.message,
		};
		earlier.retried(itemIndex, ref, json);
		return [{ json }];
	} catch (error) {
		if (refusedBeforeActing(error)) earlier.refused(itemIndex, ref);
		else earlier.unknown(itemIndex, ref, nodeErrorOf(this.getNode(), error, itemIndex).message);
		throw await withCurrentState(
			this,
			located ? notFoundAnywhere(this, error, located, itemIndex) : error,
			ref,
			itemIndex,
		);
	}
}
