import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { startTry } from '../helpers/earlierTries';
import { jobHints } from '../helpers/jobHints';
import { jobsOfError } from '../helpers/jobErrors';
import { shapeJobItem } from '../helpers/simplify';
import { carryOnWithCreated, jobKey, nodeErrorOf, tagItem } from '../transport';
import type { JobRef } from '../transport';
import * as account from './account/Account.resource';
import * as file from './file/File.resource';
import * as format from './format/Format.resource';
import * as job from './job/Job.resource';
import type { EmbroideryOperation, ItemResults, OperationOutput } from './types';

const operations: Record<string, Record<string, EmbroideryOperation>> = {
	job: {
		create: job.create,
		download: job.download,
		get: job.get,
		getMany: job.getMany,
		retry: job.retry,
		unlock: job.unlock,
		waitForCompletion: job.waitForCompletion,
	},
	format: { getMany: format.getMany },
	account: { getUsage: account.getUsage },
	file: { download: file.download },
};

/** The item loop, Continue On Fail and pairedItem, in one place for every operation. */
class CollectedResults implements ItemResults {
	private readonly collected: Array<{ itemIndex: number; data: INodeExecutionData }> = [];

	private readonly createdJobs: JobRef[] = [];

	constructor(private readonly context: IExecuteFunctions) {}

	jobCreated(_itemIndex: number, job: JobRef): void {
		this.createdJobs.push({ id: job.id, workflow: job.workflow });
	}

	add(itemIndex: number, output: OperationOutput): void {
		this.collected.push({ itemIndex, data: { ...output, pairedItem: { item: itemIndex } } });
	}

	fail(itemIndex: number, error: unknown): void {
		const nodeError = tagItem(nodeErrorOf(this.context.getNode(), error, itemIndex), itemIndex);
		if (!this.context.continueOnFail()) throw this.namingCreatedJobs(nodeError);
		// The jobs the error is about go on its item: one as id and workflow, several as a list.
		const jobs = jobsOfError(nodeError);
		const json: INodeExecutionData['json'] =
			jobs.length === 1
				? { ...jobs[0] }
				: jobs.length > 1
					? { jobs: jobs.map((job) => ({ ...job })) }
					: {};
		json.error = nodeError.message;
		if (nodeError.description) json.description = nodeError.description;
		if (nodeError instanceof NodeApiError && nodeError.httpCode) json.httpCode = nodeError.httpCode;
		this.collected.push({ itemIndex, data: { json, pairedItem: { item: itemIndex } } });
	}

	/**
	 * An error that ends the run takes every job this run created with it: the output that would have
	 * named them is lost.
	 */
	private namingCreatedJobs<E extends NodeApiError | NodeOperationError>(error: E): E {
		if (this.createdJobs.length === 0 || error.context.createdJobs !== undefined) return error;
		error.context.createdJobs = this.createdJobs.map((job) => ({ ...job }));
		// The jobs the error is about already come with what to do next.
		const named = new Set(jobsOfError(error).map(jobKey));
		const others = this.createdJobs.filter((job) => !named.has(jobKey(job)));
		if (others.length === 0) return error;
		const list = others.map((job) => `${job.id} (${job.workflow})`).join(', ');
		const also = named.size > 0 ? ' also' : '';
		error.description = (
			`${error.description ?? ''} This run${also} ` +
			`created ${others.length === 1 ? 'job' : 'jobs'} ${list} before it stopped; ` +
			carryOnWithCreated(others.length)
		).trim();
		return error;
	}

	answeredItems(): Set<number> {
		return new Set(this.collected.map((entry) => entry.itemIndex));
	}

	/** Output in input order; a stable sort keeps each item's own outputs in sequence. */
	toOutput(): INodeExecutionData[] {
		return [...this.collected].sort((a, b) => a.itemIndex - b.itemIndex).map((entry) => entry.data);
	}
}

/** Runs the operation over every item; each failure lands on its item, or ends the run without Continue On Fail. */
/** Get and Get Many shape their own items; from version 3 the operations that end with whole jobs are shaped here. */
function simplifiesJobItems(
	context: IExecuteFunctions,
	resource: string,
	operationName: string,
): boolean {
	if (resource !== 'job' || context.getNode().typeVersion < 3) return false;
	if (operationName === 'unlock' || operationName === 'waitForCompletion') return true;
	return (
		operationName === 'create' && context.getNodeParameter('waitForCompletion', 0, false) === true
	);
}

/** A job the operation put out, not a failure's item (which carries `error`) or anything else. */
function isJobItem(json: INodeExecutionData['json']): boolean {
	return typeof json.id === 'string' && typeof json.status === 'string' && json.error === undefined;
}

/** Simplify (or the tool's Output) on each job item's JSON; binary data stays as it is. */
function simplifiedJobItems(
	context: IExecuteFunctions,
	output: INodeExecutionData[],
): INodeExecutionData[] {
	return output.map((item) => {
		if (!isJobItem(item.json)) return item;
		const itemIndex = (item.pairedItem as { item: number }).item;
		return { ...item, json: shapeJobItem(context, itemIndex, item.json) };
	});
}

async function runItems(
	context: IExecuteFunctions,
	operation: EmbroideryOperation,
	itemIndices: number[],
	results: CollectedResults,
): Promise<void> {
	if ('executeAll' in operation) {
		try {
			await operation.executeAll.call(context, itemIndices, results);
		} catch (error) {
			// A failure shared by all items (say, the jobs listing refused): each unanswered item gets it.
			const answered = results.answeredItems();
			for (const itemIndex of itemIndices)
				if (!answered.has(itemIndex)) results.fail(itemIndex, error);
		}
	} else {
		for (const itemIndex of itemIndices) {
			try {
				for (const output of await operation.execute.call(context, itemIndex))
					results.add(itemIndex, output);
			} catch (error) {
				results.fail(itemIndex, error);
			}
		}
	}
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not known`,
		);
	}
	const results = new CollectedResults(this);
	const itemIndices = items.map((_, index) => index);
	// Each call is one try of n8n's Retry On Fail; what it creates and unlocks is remembered for the next.
	const thisTry = startTry(this);
	let failed = true;
	try {
		await runItems(this, operation, itemIndices, results);
		failed = false;
	} finally {
		thisTry.end(failed);
	}
	const output = results.toOutput();
	// A listing's locked and failed jobs are no news about this run; its items still carry their warnings.
	const hints = resource === 'job' && operationName === 'getMany' ? [] : jobHints(output);
	// Execution hints reach the editor's output pane; older n8n versions have no such method.
	if (hints.length > 0 && typeof this.addExecutionHints === 'function')
		this.addExecutionHints(...hints);
	// Shaped after the hints, which read what Simplify leaves out (the downloaded files).
	return [
		simplifiesJobItems(this, resource, operationName) ? simplifiedJobItems(this, output) : output,
	];
}
