import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { JobRef } from '../transport';

/** What an operation returns for one item; the router adds pairedItem. */
export interface OperationOutput {
	json: IDataObject;
	binary?: IBinaryKeyData;
}

/** Where operations that handle all items at once put each item's outputs or failure. */
export interface ItemResults {
	add(itemIndex: number, output: OperationOutput): void;
	/** Records the failure under "Continue On Fail", otherwise throws it and ends the run. */
	fail(itemIndex: number, error: unknown): void;
	/** A job the service accepted in this run; an error that ends the run names every such job. */
	jobCreated(itemIndex: number, job: JobRef): void;
}

export interface PerItemOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]>;
}

/** For operations that gain from seeing every item: batched uploads, batch-aware waiting. */
export interface AllItemsOperation {
	description: INodeProperties[];
	executeAll(this: IExecuteFunctions, itemIndices: number[], results: ItemResults): Promise<void>;
}

export type EmbroideryOperation = PerItemOperation | AllItemsOperation;
