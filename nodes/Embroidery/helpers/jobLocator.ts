import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeParameterResourceLocator } from 'n8n-workflow';

import {
	JobsListResponseSchema,
	embroideryApiRequest,
	isWorkflow,
	jobAdvice,
	jobIdPattern,
	jobsListingSize,
	parameterAdvice,
	parseJobLink,
	nodeErrorOf,
	routes,
} from '../transport';
import type { Job, JobListItem, JobRef, Workflow } from '../transport';
import { fetchJob } from './fetchJob';
import { ofRun } from './ofRun';

export function jobLink(baseUrl: string, ref: JobRef): string {
	return `${baseUrl}${routes.getJob(ref).path}`;
}

const jobIdRegex = new RegExp(`^${jobIdPattern}$`);

export function jobIdProblem(id: unknown): string | null {
	if (typeof id === 'string' && jobIdRegex.test(id.trim())) return null;
	return `'Job ID' must be a 26-character job id (ULID), got "${String(id ?? '')}"`;
}

export function workflowProblem(workflow: unknown): string | null {
	if (isWorkflow(workflow)) return null;
	return (
		`'Workflow' must be "conversion" or "digitising", got "${String(workflow ?? '')}". It ` +
		`selects the job's route, so keep it with the job id`
	);
}

/** Job ID and Workflow parameters of an item, checked before any request. */
export function jobRefsOfItem(context: IExecuteFunctions, itemIndex: number): JobRef[] {
	const rawIds = context.getNodeParameter('jobId', itemIndex) as unknown;
	const workflow = context.getNodeParameter('workflow', itemIndex) as unknown;
	const workflowIssue = workflowProblem(workflow);
	if (workflowIssue) throw new NodeOperationError(context.getNode(), workflowIssue, { itemIndex });
	const ids = (Array.isArray(rawIds) ? rawIds : String(rawIds ?? '').split(','))
		.map((id) => String(id).trim())
		.filter((id) => id !== '');
	if (ids.length === 0) ids.push('');
	return ids.map((id) => {
		const idIssue = jobIdProblem(id);
		if (idIssue) throw new NodeOperationError(context.getNode(), idIssue, { itemIndex });
		return { id, workflow: workflow as Workflow };
	});
}

export function singleJobRef(context: IExecuteFunctions, itemIndex: number): JobRef {
	const refs = jobRefsOfItem(context, itemIndex);
	if (refs.length > 1) {
		throw new NodeOperationError(
			context.getNode(),
			`'Job ID' holds ${refs.length} ids; this operation takes one`,
			{
				itemIndex,
			},
		);
	}
	return refs[0];
}

/** How the node came to know a job's workflow. */
export type WorkflowSource = 'given' | 'item' | 'listing' | 'conversionRoute' | 'elimination';

export interface LocatedJob extends JobRef {
	workflowSource: WorkflowSource;
	/** The detailed job, when finding the workflow already fetched it. */
	job?: Job;
}

/** What the Job and Workflow fields of one item say, before any request. */
interface JobPointer {
	id: string;
	workflow?: Workflow;
	/** Where the workflow came from: the fields, or the incoming item when that item is this job. */
	source?: 'given' | 'item';
}

/** The workflow of the incoming item, when the item is the job itself (it came from Create, Get or the trigger). */
function workflowOfIncomingItem(
	context: IExecuteFunctions,
	itemIndex: number,
	id: string,
): Workflow | undefined {
	const json = context.getInputData()[itemIndex]?.json;
	if (!json || typeof json.id !== 'string' || json.id.toUpperCase() !== id.toUpperCase())
		return undefined;
	return isWorkflow(json.workflow) ? json.workflow : undefined;
}

function isLocator(value: unknown): value is INodeParameterResourceLocator {
	return typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;
}

function fail(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): never {
	throw new NodeOperationError(context.getNode(), message, { itemIndex, description });
}

/** The Workflow field: a workflow, or nothing when it is empty or Detect. */
function workflowField(context: IExecuteFunctions, itemIndex: number): Workflow | undefined {
	const raw = context.getNodeParameter('workflow', itemIndex, '') as unknown;
	const text = typeof raw === 'string' ? raw.trim() : raw;
	if (text === '' || text === undefined || text === null || text === 'detect') return undefined;
	if (isWorkflow(text)) return text;
	return fail(
		context,
		itemIndex,
		`'Workflow' must be "conversion", "digitising" or empty, got "${String(raw)}"`,
		"Leave it empty (or choose Detect) and the node finds the job's workflow itself.",
	);
}

/**
 * The jobs an item's Job field names (a resource locator, or the plain string of older saved
 * workflows), with the workflow when the field itself carries it: a job picked from the list
 * keeps its link, and a job link names its workflow.
 */
export function jobPointersOfItem(
	context: IExecuteFunctions,
	itemIndex: number,
	options: { several: boolean } = { several: false },
): JobPointer[] {
	const raw = context.getNodeParameter('jobId', itemIndex) as unknown;
	const locator = isLocator(raw)
		? raw
		: { mode: 'id', value: raw as string, cachedResultUrl: undefined };
	const value = String(locator.value ?? '').trim();
	const fieldWorkflow = workflowField(context, itemIndex);
	const valueLink = parseJobLink(value);
	if (locator.mode === 'url' || valueLink) {
		if (!valueLink) {
			fail(context, itemIndex, `'Job' is not a job link: "${value}"`, parameterAdvice.notAJobLink);
		}
		return [{ ...valueLink, source: 'given' }];
	}
	const listLink =
		locator.mode === 'list' ? parseJobLink(locator.cachedResultUrl ?? '') : undefined;
	const ids = (options.several ? value.split(',') : [value])
		.map((id) => id.trim())
		.filter((id) => id !== '');
	if (ids.length === 0) ids.push('');
	return ids.map((id) => {
		const problem = jobIdProblem(id);
		if (problem)
			fail(context, itemIndex, problem.replace(/^'Job ID'/, "'Job'"), parameterAdvice.notAJobId);
		const given = listLink?.id === id.toUpperCase() ? listLink.workflow : fieldWorkflow;
		if (given) return { id, workflow: given, source: 'given' };
		const incoming = workflowOfIncomingItem(context, itemIndex, id);
		return incoming ? { id, workflow: incoming, source: 'item' } : { id };
	});
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/**
 * Finds the workflow of jobs whose Workflow field is empty or Detect: first in the listing of the
 * most recent jobs (one request for all items of an execution), then by asking the conversion
 * route, where a 404 leaves the digitising route. So at most two extra requests per job, and a
 * job found on the conversion route comes with its detail, which Get and Download reuse.
 */
export class WorkflowFinder {
	private listing?: Promise<Map<string, JobListItem>>;

	constructor(private readonly context: IExecuteFunctions) {}

	async locate(pointer: JobPointer, itemIndex: number): Promise<LocatedJob> {
		if (pointer.workflow)
			return {
				id: pointer.id,
				workflow: pointer.workflow,
				workflowSource: pointer.source ?? 'given',
			};
		const listed = (await this.recentJobs(itemIndex)).get(pointer.id.toUpperCase());
		if (listed) return { id: pointer.id, workflow: listed.kind, workflowSource: 'listing' };
		try {
			const job = await fetchJob(
				this.context,
				{ id: pointer.id, workflow: 'conversion' },
				itemIndex,
			);
			return { id: pointer.id, workflow: 'conversion', workflowSource: 'conversionRoute', job };
		} catch (error) {
			if (!isNotFound(error)) throw nodeErrorOf(this.context.getNode(), error, itemIndex);
			return { id: pointer.id, workflow: 'digitising', workflowSource: 'elimination' };
		}
	}

	private async recentJobs(itemIndex: number): Promise<Map<string, JobListItem>> {
		this.listing ??= embroideryApiRequest
			.call(this.context, { ...routes.listJobs(), schema: JobsListResponseSchema, itemIndex })
			.then((answer) => new Map(answer.data.map((item) => [item.id.toUpperCase(), item])));
		try {
			return await this.listing;
		} catch (error) {
			this.listing = undefined;
			throw nodeErrorOf(this.context.getNode(), error, itemIndex);
		}
	}
}

// One finder per execution context, so all items of a run share one listing.
const finders = new WeakMap<object, WorkflowFinder>();

export function workflowFinderOf(context: IExecuteFunctions): WorkflowFinder {
	return ofRun(finders, context, () => new WorkflowFinder(context));
}

/** The one job an item names, with its workflow found when the fields leave it open. */
export async function locateJob(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<LocatedJob> {
	const [pointer] = jobPointersOfItem(context, itemIndex);
	return await workflowFinderOf(context).locate(pointer, itemIndex);
}

/**
 * The one job an item names, for operations that act on it: version 1 takes the Job ID and Workflow fields
 * as they are; from version 2 on, the workflow is found when the fields leave it open, and `located` says how.
 */
export async function jobRefOf(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<{ ref: JobRef; located?: LocatedJob }> {
	if (context.getNode().typeVersion < 2) return { ref: singleJobRef(context, itemIndex) };
	const located = await locateJob(context, itemIndex);
	return { ref: { id: located.id, workflow: located.workflow }, located };
}

/** A 404 on the last route left says plainly that neither workflow knows the job. */
export function notFoundAnywhere(
	context: IExecuteFunctions,
	error: unknown,
	job: LocatedJob,
	itemIndex: number,
): unknown {
	if (job.workflowSource !== 'elimination' || !isNotFound(error)) return error;
	return new NodeApiError(
		context.getNode(),
		{ message: (error as NodeApiError).message, httpCode: '404' },
		{
			message: `Job ${job.id} was not found`,
			description: jobAdvice.notFoundAnywhere(jobsListingSize),
			httpCode: '404',
			itemIndex,
		},
	);
}
