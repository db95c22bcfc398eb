/**
 * Runs nodes through n8n-core's real execution path: a `Workflow` executed by `WorkflowExecute`,
 * real execute contexts and request helpers (httpRequestWithAuthentication over real HTTP),
 * declarative credential authentication resolved by n8n's expression engine, and binary data
 * stored by n8n-core's BinaryDataService in filesystem mode under a temporary n8n folder.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
	BinaryDataService,
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	NodeApiError,
	Workflow,
	createEmptyRunExecutionData,
	isExpression,
} from 'n8n-workflow';
import type {
	ExecutionError,
	IBinaryData,
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	IRequestOptionsSimplified,
} from 'n8n-workflow';

import { EmbroideryApi } from '../../credentials/EmbroideryApi.credentials';

// n8n-core resolves its own copy of the DI container; services must come from that one.
const { Container } = createRequire(require.resolve('n8n-core'))(
	'@n8n/di',
) as typeof import('@n8n/di');

export const packageName = 'n8n-nodes-embroidery';
export const embroideryNodeType = `${packageName}.embroidery`;

export interface ApiCredentials {
	apiKey: string;
	baseUrl: string;
}

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

const nodeTypeRegistry = new Map<string, INodeType>();

/** Makes a node type runnable by the harness (the trigger engineer registers theirs the same way). */
export function registerNodeType(name: string, nodeType: INodeType): void {
	nodeTypeRegistry.set(name, nodeType);
}

// Named with its extension: beside Embroidery.node.ts lies the codex Embroidery.node.json, which
// Node's resolver (under tsx) would otherwise pick for the extension-less path.
const { Embroidery } =
	require('../../nodes/Embroidery/Embroidery.node.ts') as typeof import('../../nodes/Embroidery/Embroidery.node');
registerNodeType(embroideryNodeType, new Embroidery());

const credentialTypes = new Map<string, ICredentialType>([['embroideryApi', new EmbroideryApi()]]);

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

/** Hands out the test's decrypted credentials (with their type's defaults) and authenticates requests with them. */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** Applies the credential's declarative `authenticate` the way n8n's own CredentialsHelper does. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const options = requestOptions as IHttpRequestOptions & Record<string, IDataObject>;
		const type = credentialTypes.get(typeName);
		const authenticate = type?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		if (!authenticate || !workflow || !node) return options;
		const resolve = (value: string) =>
			isExpression(value)
				? String(
						workflow.expression.getSimpleParameterValue(node, value, 'internal', {
							$credentials: credentials,
						}) ?? '',
					)
				: value;
		for (const [outerKey, inner] of Object.entries(authenticate.properties)) {
			// In place, as n8n's CredentialsHelper does: the caller's headers object gets the key.
			options[outerKey] ??= {};
			for (const [key, value] of Object.entries(inner as Record<string, string>)) {
				options[outerKey][resolve(key)] = resolve(value);
			}
		}
		return options;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('The harness holds decrypted credentials only');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No credentials of type ${type} were given to the harness`);
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of credentialTypes.get(type)?.properties ?? []) {
			defaults[property.name] = property.default as string;
		}
		return { ...defaults, ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes.get(type)?.properties ?? [];
	}
}

let binaryDataReady: Promise<void> | undefined;

/** Points n8n at a temporary folder and starts the BinaryDataService in filesystem mode (once per test file). */
export async function ensureBinaryDataService(): Promise<void> {
	binaryDataReady ??= (async () => {
		process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-embroidery-'));
		process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
		// n8n's error reporter logs every node error; tests read errors from the run instead.
		process.env.N8N_LOG_LEVEL ??= 'silent';
		await Container.get(BinaryDataService).init();
	})();
	await binaryDataReady;
}

function nodeTypesWith(extra: Map<string, INodeType>): INodeTypes {
	const lookup = (name: string) => {
		const type = extra.get(name) ?? nodeTypeRegistry.get(name);
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	};
	return {
		getByName: lookup,
		getByNameAndVersion: lookup,
		getKnownTypes: () => ({}),
	};
}

let executionCounter = 0;

export function credentialsData(
	credentials?: ApiCredentials,
): Record<string, ICredentialDataDecryptedObject> {
	return credentials ? { embroideryApi: { ...credentials } } : {};
}

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
		credentials: options.credentials
			? { embroideryApi: { id: 'cred-1', name: 'Embroidery API' } }
			: undefined,
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

/** The bytes of a binary property produced by a node run. */
export async function binaryBuffer(binary: IBinaryData): Promise<Buffer> {
	await ensureBinaryDataService();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

/** A node type using the embroideryApi credential that runs `work` and passes one empty item on. */
export function testNodeType(
	name: string,
	description: string,
	work: (context: IExecuteFunctions) => Promise<void>,
): INodeType {
	return {
		description: {
			displayName: name,
			name,
			group: ['transform'],
			version: 1,
			description,
			defaults: { name },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'embroideryApi', required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			await work(this);
			return [[{ json: {}, pairedItem: { item: 0 } }]];
		},
	};
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

/** n8n-core's real LoadOptionsContext for the Embroidery node, the context the editor's dropdowns and lists run in. */
async function loadOptionsContext(
	/** Undefined: a node just added, with no credential chosen yet. */
	credentials: ApiCredentials | undefined,
	parameters: INodeParameters,
	typeVersion: number,
): Promise<ILoadOptionsFunctions> {
	await ensureBinaryDataService();
	const node: INode = {
		id: 'node-under-test',
		name: 'Embroidery',
		type: embroideryNodeType,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: credentials && { embroideryApi: { id: 'cred-1', name: 'Embroidery API' } },
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		nodes: [node],
		connections: {},
		nodeTypes: nodeTypesWith(new Map()),
		active: false,
	});
	const additionalData = {
		executionId: `harness-load-options-${++executionCounter}`,
		credentialsHelper: new HarnessCredentialsHelper(credentialsData(credentials)),
		currentNodeParameters: parameters,
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	return new LoadOptionsContext(workflow, node, additionalData, '');
}

/** Runs one of the node's loadOptions methods with n8n-core's real LoadOptionsContext. */
export async function loadOptions(
	methodName: string,
	credentials: ApiCredentials | undefined,
	parameters: INodeParameters = {},
): Promise<
	Awaited<ReturnType<NonNullable<NonNullable<INodeType['methods']>['loadOptions']>[string]>>
> {
	const method = nodeTypeRegistry.get(embroideryNodeType)!.methods?.loadOptions?.[methodName];
	if (!method) throw new Error(`No loadOptions method ${methodName}`);
	return await method.call(await loadOptionsContext(credentials, parameters, 1));
}

/** Runs one of the node's listSearch methods (a resource locator's list, node version 2) the same way. */
export async function listSearch(
	methodName: string,
	credentials: ApiCredentials,
	filter?: string,
	parameters: INodeParameters = {},
): Promise<INodeListSearchResult> {
	const method = nodeTypeRegistry.get(embroideryNodeType)!.methods?.listSearch?.[methodName];
	if (!method) throw new Error(`No listSearch method ${methodName}`);
	return await method.call(await loadOptionsContext(credentials, parameters, 2), filter);
}

export type CredentialTestResult =
	| { status: 'OK'; message: string }
	| { status: 'Error'; message: string };

/**
 * Runs the credential's declarative `test` request the way n8n's credentials tester does:
 * a temporary node whose only parameter routes that request, executed by n8n-core's RoutingNode
 * with the credential's authentication, and the `rules` mapping failing status codes to messages.
 */
export async function testCredential(credentials: ApiCredentials): Promise<CredentialTestResult> {
	await ensureBinaryDataService();
	const credentialType = credentialTypes.get('embroideryApi')!;
	const testRequest = credentialType.test!;
	const tempType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Runs a credential test request',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'embroideryApi', required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest.request },
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'harness.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { embroideryApi: { id: 'cred-1', name: 'Embroidery API' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesWith(new Map([['harness.credentialTest', tempType]])),
	});
	const additionalData = {
		executionId: `harness-credential-test-${++executionCounter}`,
		credentialsHelper: new HarnessCredentialsHelper(credentialsData(credentials)),
		currentNodeParameters: {},
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const decrypted = {
		id: 'cred-1',
		name: 'Embroidery API',
		type: 'embroideryApi',
		data: { ...credentials },
	};
	try {
		await new RoutingNode(context, tempType, decrypted).runNode();
	} catch (error) {
		const status = (error as { cause?: { response?: { status?: number } } }).cause?.response
			?.status;
		for (const rule of testRequest.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		return { status: 'Error', message: (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
