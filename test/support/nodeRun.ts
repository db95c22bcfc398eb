/**
 * Runs nodes through n8n-core's real execution path: a `Workflow` executed by `WorkflowExecute`,
 * real execute contexts and request helpers (httpRequestWithAuthentication over real HTTP),
 * declarative credential authentication resolved by n8n's expression engine, and binary data
 * stored by n8n-core's BinaryDataService in filesystem mode under a temporary n8n folder.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { NodeApiError, Workflow } from 'n8n-workflow';
import type {
	ExecutionError,
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { ensureBinaryDataService } from './binaryData';
import {
	credentialReference,
	credentialsData,
	HarnessCredentialsHelper,
	type ApiCredentials,
} from './n8nCredentials';
import { embroideryNodeType, nodeTypesWith, registerNodeType, testNodeType } from './nodeTypes';

export interface InputBinary {
	data: Buffer | Uint8Array;
	fileName: string;
	mimeType: string;
}

export interface InputItem {
	json?: IDataObject;
	binary?: Record<string, InputBinary>;
}

export interface RunNodeOptions {
	parameters: INodeParameters;
	credentials?: ApiCredentials;
	input?: InputItem[];
	/** 'continueRegularOutput' mirrors the node setting "On Error: Continue". */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	nodeType?: string;
	typeVersion?: number;
	/** Aborting this cancels the execution, like the Stop button. */
	signal?: AbortSignal;
	/** The node settings "Retry On Fail", "Max. Tries" and "Wait Between Tries (ms)". */
	retryOnFail?: { maxTries: number; waitBetweenTries: number };
	/**
	 * n8n's Retry of this failed execution (the executions list's "Retry with original workflow"): a new execution
	 * in mode "retry" from the failed one's data, its failed node's last run removed, as n8n's ExecutionService does.
	 */
	retryOf?: NodeRun;
}

export interface NodeRun {
	/** Output items of the first output. */
	items: INodeExecutionData[];
	/** All outputs (the error output is the second when onError is continueErrorOutput). */
	outputs: INodeExecutionData[][];
	error?: ExecutionError;
	run: IRun;
}

const inputNodeType = 'harness.input';

/** The start node: emits the test's items, storing their binaries through the real BinaryDataService. */
function inputNode(items: InputItem[]): INodeType {
	return {
		description: {
			displayName: 'Input',
			name: 'input',
			group: ['input'],
			version: 1,
			description: 'Emits test items',
			defaults: { name: 'Input' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const out: INodeExecutionData[] = [];
			for (const [index, item] of items.entries()) {
				const binary: Record<string, IBinaryData> = {};
				for (const [key, file] of Object.entries(item.binary ?? {})) {
					binary[key] = await this.helpers.prepareBinaryData(
						Buffer.from(file.data),
						file.fileName,
						file.mimeType,
					);
				}
				out.push({
					json: item.json ?? {},
					...(item.binary ? { binary } : {}),
					pairedItem: { item: index },
				});
			}
			return [out];
		},
	};
}
let executionCounter = 0;

/** Executes Input -> node under test in one real workflow execution and returns the node's result. */
export async function runNode(options: RunNodeOptions): Promise<NodeRun> {
	await ensureBinaryDataService();
	const executionId = `harness-${process.pid}-${++executionCounter}`;
	const nodeName = 'Embroidery';
	const extraTypes = new Map<string, INodeType>([
		[inputNodeType, inputNode(options.input ?? [{}])],
	]);
	const node: INode = {
		id: 'node-under-test',
		name: nodeName,
		type: options.nodeType ?? embroideryNodeType,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters,
		...(options.onError ? { onError: options.onError } : {}),
		...(options.retryOnFail ? { retryOnFail: true, ...options.retryOnFail } : {}),
		credentials: options.credentials ? credentialReference(options.credentials) : undefined,
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes: [
			{
				id: 'input',
				name: 'Input',
				type: inputNodeType,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			node,
		],
		connections: { Input: { main: [[{ node: nodeName, type: 'main', index: 0 }]] } },
		nodeTypes: nodeTypesWith(extraTypes),
		active: false,
	});
	const mode = options.retryOf ? 'retry' : 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: 'Harness',
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	let finish!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (finish = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finish(run));

	const additionalData = {
		executionId,
		hooks,
		credentialsHelper: new HarnessCredentialsHelper(credentialsData(options.credentials)),
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		variables: {},
		currentNodeParameters: undefined,
		userId: 'harness-user',
	} as unknown as IWorkflowExecuteAdditionalData;

	const runExecutionData = options.retryOf
		? dataToRetry(options.retryOf.run)
		: ({
				startData: {},
				resultData: { runData: {} },
				executionData: {
					contextData: {},
					metadata: {},
					nodeExecutionStack: [
						{ node: workflow.getNode('Input')!, data: { main: [[{ json: {} }]] }, source: null },
					],
					waitingExecution: {},
					waitingExecutionSource: {},
				},
			} as unknown as IRunExecutionData);

	const execution = new WorkflowExecute(additionalData, mode, runExecutionData);
	const running = execution.processRunExecutionData(workflow);
	const cancel = () => running.cancel();
	options.signal?.addEventListener('abort', cancel, { once: true });
	try {
		await running;
	} finally {
		options.signal?.removeEventListener('abort', cancel);
	}
	const run = await finished;
	const taskData = run.data.resultData.runData[nodeName]?.at(-1);
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	return {
		items: outputs[0] ?? [],
		outputs,
		error: taskData?.error ?? run.data.resultData.error,
		run,
	};
}

/** What n8n's ExecutionService.retry runs: the failed execution's data without its error and its failed node's run. */
function dataToRetry(failed: IRun): IRunExecutionData {
	// As n8n reads it back from its database: plain JSON.
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData[lastNodeExecuted];
		if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	return data;
}
/** The NodeApiError a promise rejects with (any other outcome fails the test). */
export async function caughtApiError(promise: Promise<unknown>): Promise<NodeApiError> {
	try {
		await promise;
	} catch (error) {
		if (error instanceof NodeApiError) return error;
		throw error;
	}
	throw new Error('expected the request to fail');
}

const probeNodeType = 'harness.probe';

/**
 * Calls `fn` inside a real node execution and hands back what it returned or threw: the way to
 * exercise the transport with n8n's genuine execute context and request helpers.
 */
export async function withinNodeExecution<T>(
	credentials: ApiCredentials,
	fn: (context: IExecuteFunctions) => Promise<T>,
	options: { signal?: AbortSignal } = {},
): Promise<T> {
	let outcome: { value: T } | { error: unknown } | undefined;
	const probe = testNodeType('probe', 'Runs a test function', async (context) => {
		try {
			outcome = { value: await fn(context) };
		} catch (error) {
			outcome = { error };
		}
	});
	registerNodeType(probeNodeType, probe);
	await runNode({ parameters: {}, credentials, nodeType: probeNodeType, signal: options.signal });
	if (!outcome) throw new Error('The probe node did not run');
	if ('error' in outcome) throw outcome.error;
	return outcome.value;
}
