import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { isWorkflow, jobAdvice, nodeErrorOf } from '../transport';
import type { JobRef } from '../transport';

// Errors about jobs the service has: they name the jobs, so the error items carry their ids and workflows.

/**
 * An error about a job the service has: the message names the job, the next step says how to carry on
 * without creating it again, and the error carries the job's id and workflow for the error item.
 */
export function jobError(
	node: INode,
	error: unknown,
	ref: JobRef,
	itemIndex: number | undefined,
	created: boolean,
): NodeApiError | NodeOperationError {
	const base = nodeErrorOf(node, error, itemIndex);
	const message = base.message.includes(ref.id) ? base.message : `Job ${ref.id}: ${base.message}`;
	const nextStep = created ? jobAdvice.created(ref) : jobAdvice.check(ref);
	const description = [base.description, nextStep].filter(Boolean).join(' ');
	const httpCode = base instanceof NodeApiError ? (base.httpCode ?? undefined) : undefined;
	const copy = httpCode
		? new NodeApiError(node, { message, httpCode }, { message, description, httpCode, itemIndex })
		: new NodeOperationError(node, message, { description, itemIndex });
	copy.context.job = { id: ref.id, workflow: ref.workflow };
	return copy;
}

function asJobRef(value: unknown): JobRef | undefined {
	const job = value as Partial<JobRef> | undefined;
	return job && typeof job.id === 'string' && isWorkflow(job.workflow)
		? { id: job.id, workflow: job.workflow }
		: undefined;
}

/** The jobs an error is about: the one of jobError, or the several of jobsError. */
export function jobsOfError(error: NodeApiError | NodeOperationError): JobRef[] {
	const one = asJobRef(error.context.job);
	if (one) return [one];
	const several = Array.isArray(error.context.jobs) ? (error.context.jobs as unknown[]) : [];
	return several.map(asJobRef).filter((job): job is JobRef => job !== undefined);
}

/** An error that carries the jobs it is about (the service created them), so their ids reach the error item. */
export function jobsError<E extends NodeApiError | NodeOperationError>(
	error: E,
	jobs: JobRef[],
): E {
	error.context.jobs = jobs.map(({ id, workflow }) => ({ id, workflow }));
	return error;
}
