import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeParameterValue,
} from 'n8n-workflow';

import { startTry } from '../helpers/earlierTries';
import { jobHints } from '../helpers/jobHints';
import { jobsOfError } from '../helpers/jobErrors';
import { shapeItem } from '../helpers/simplify';
import type { Shaping } from '../helpers/simplify';
import { carryOnWithCreated, jobKey, nodeErrorOf, tagItem } from '../transport';
import type { JobRef } from '../transport';
import type { EmbroideryOperation, ItemResults, OperationOutput, ResourceTable } from './types';
import { resources } from './versionDescription';

/** Each item's outputs and failures, in the order they came; a failure's item is never shaped. */
class CollectedResults implements ItemResults {
	private readonly collected: Array<{
		itemIndex: number;
		data: INodeExecutionData;
		failed: boolean;
	}> = [];

	private readonly createdJobs: JobRef[] = [];

	/** The error fail() threw to end the run: it names its own item, whoever catches it on the way out. */
	private runEndedBy?: NodeApiError | NodeOperationError;

	constructor(private readonly context: IExecuteFunctions) {}

	jobCreated(_itemIndex: number, job: JobRef): void {
		this.createdJobs.push({ id: job.id, workflow: job.workflow });
	}

	add(itemIndex: number, output: OperationOutput): void {
		this.collected.push({
			itemIndex,
			data: { ...output, pairedItem: { item: itemIndex } },
			failed: false,
		});
	}

	fail(itemIndex: number, error: unknown): void {
		const nodeError = tagItem(nodeErrorOf(this.context.getNode(), error, itemIndex), itemIndex);
		if (!this.context.continueOnFail()) {
			this.runEndedBy = this.namingCreatedJobs(nodeError);
			throw this.runEndedBy;
		}
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
		this.collected.push({
			itemIndex,
			data: { json, pairedItem: { item: itemIndex } },
			failed: true,
		});
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

	/** The error fail() threw for its item, when `error` is it: it ends the run as it is. */
	runEndingError(error: unknown): NodeApiError | NodeOperationError | undefined {
		return error === this.runEndedBy ? this.runEndedBy : undefined;
	}

	answeredItems(): Set<number> {
		return new Set(this.collected.map((entry) => entry.itemIndex));
	}

	/**
	 * Output in input order; a stable sort keeps each item's own outputs in sequence. `shape` makes each
	 * output's JSON what the user asked for; failures stay as they are.
	 */
	toOutput(shape?: (json: IDataObject, itemIndex: number) => IDataObject): INodeExecutionData[] {
		return [...this.collected]
			.sort((a, b) => a.itemIndex - b.itemIndex)
			.map(({ itemIndex, data, failed }) =>
				shape && !failed ? { ...data, json: shape(data.json, itemIndex) } : data,
			);
	}
}

/** The shaping the operation asks for in this node version and with these parameters, if any. */
function shapingOf(
	context: IExecuteFunctions,
	operation: EmbroideryOperation,
): Shaping | undefined {
	const { output } = operation;
	if (!output || context.getNode().typeVersion < output.fromVersion) return undefined;
	const conditions = Object.entries((output.fromVersion === 3 && output.when) || {});
	// A condition is on the whole run, as Create reads Wait for Completion: from the first item.
	const holds = conditions.every(([name, values]) =>
		values.includes(context.getNodeParameter(name, 0, null) as NodeParameterValue),
	);
	return holds ? output.shaping : undefined;
}

/** Runs the operation over every item; each failure lands on its item, or ends the run without Continue On Fail. */
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
			// An item's own failure already ended the run; it keeps naming that item, not the first unanswered one.
			const ending = results.runEndingError(error);
			if (ending) throw ending;
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

/** The operation a saved workflow names, if the table has it (a name such as "toString" is none). */
function operationOf(
	table: ResourceTable,
	resource: string,
	operation: string,
): EmbroideryOperation | undefined {
	if (!Object.hasOwn(table, resource)) return undefined;
	const { operations } = table[resource];
	return Object.hasOwn(operations, operation) ? operations[operation] : undefined;
}

/**
 * The node's execute() for a resource table: the item loop, Continue On Fail, pairedItem, execution hints and
 * Simplify (or the tool's Output), in one place for every operation.
 */
export function routerFor(table: ResourceTable) {
	return async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const resource = this.getNodeParameter('resource', 0) as string;
		const operationName = this.getNodeParameter('operation', 0) as string;
		const operation = operationOf(table, resource, operationName);
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
		const hints = operation.hintsOnJobs === false ? [] : jobHints(results.toOutput());
		// Execution hints reach the editor's output pane; older n8n versions have no such method.
		if (hints.length > 0 && typeof this.addExecutionHints === 'function')
			this.addExecutionHints(...hints);
		// Shaped after the hints, which read what Simplify leaves out (the downloaded files).
		const shaping = shapingOf(this, operation);
		return [
			results.toOutput(shaping && ((json, itemIndex) => shapeItem(this, itemIndex, json, shaping))),
		];
	};
}

export const router = routerFor(resources);
