import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeParameterValue,
} from 'n8n-workflow';

import type { Shaping, ShapingAsVersion2 } from '../helpers/simplify';
import type { JobRef, routes } from '../transport';

/** The Embroidery node's versions, oldest first; the last is the default. */
export const nodeVersions = [1, 2, 3] as const;

export type NodeVersion = (typeof nodeVersions)[number];

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

/** The operation's entry in its resource's Operation selector; its value is its key in the resource's `operations`. */
export interface OperationOption {
	name: string;
	description: string;
	action: string;
}

/**
 * What the AI tool variant tells a model about the operation, for every node version: a saved tool keeps the
 * text it was given. A version that says the same as another names the same text.
 */
export type ToolTexts = Readonly<Record<NodeVersion, string>>;

/** One text for every node version. */
export function sameForEveryVersion(text: string): ToolTexts {
	return textForEachVersion(() => text);
}

/**
 * Which Simplify (and, in the AI tool variant, Output) shapes what the operation returns, from which node
 * version; the router applies it to every item that is no failure.
 */
export type OutputShaping =
	| { shaping: ShapingAsVersion2; fromVersion: 2 }
	| {
			shaping: Shaping;
			fromVersion: 3;
			/** Only when these parameters (of the first item) have one of these values. */
			when?: Record<string, NodeParameterValue[]>;
	  };

/** What every operation module holds besides how it runs. */
interface OperationParts {
	option: OperationOption;
	/** Its own parameters; the router's table shows them for this resource and operation only. */
	description: INodeProperties[];
	/** The routes of transport/routes.ts it may send requests to. */
	routesCalled: ReadonlyArray<keyof typeof routes>;
	toolDescription: ToolTexts;
	output?: OutputShaping;
	/** False where the jobs it puts out are no news about this run (a listing): no execution hints about them. */
	hintsOnJobs?: boolean;
}

export interface PerItemOperation extends OperationParts {
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationOutput[]>;
}

/** For operations that gain from seeing every item: batched uploads, batch-aware waiting. */
export interface AllItemsOperation extends OperationParts {
	executeAll(this: IExecuteFunctions, itemIndices: number[], results: ItemResults): Promise<void>;
}

export type EmbroideryOperation = PerItemOperation | AllItemsOperation;

/** A resource: its name in the Resource selector and its operations by value, in the order the AI tool lists them. */
export interface EmbroideryResource {
	displayName: string;
	operations: Record<string, EmbroideryOperation>;
}

/** Every resource by value; the router and the node's description are built from such a table. */
export type ResourceTable = Record<string, EmbroideryResource>;

/** A text for each node version, made from the version. */
export function textForEachVersion(text: (version: NodeVersion) => string): ToolTexts {
	return { 1: text(1), 2: text(2), 3: text(3) };
}
