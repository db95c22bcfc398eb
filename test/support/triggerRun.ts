/**
 * Runs a polling trigger the way an n8n instance does: n8n-core's PollTriggerExecutor and PollContext over a real
 * `Workflow`, real request helpers (httpRequestWithAuthentication over HTTP) and the real BinaryDataService.
 * Around it, what the n8n server adds: the workflow's static data is written to the "database" after the
 * activation poll and by every poll that emits (n8n's WorkflowStaticDataService); a restart rebuilds the active
 * workflow from what was written, like `n8n start` after a crash.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

import { PollContext, PollTriggerExecutor } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { ensureBinaryDataService } from './binaryData';
import {
	credentialReference,
	credentialsData,
	HarnessCredentialsHelper,
	type ApiCredentials,
} from './n8nCredentials';

// Named with its extension: tsx would otherwise resolve the extension-less path to the codex
// EmbroideryTrigger.node.json.
type TriggerNode = typeof import('../../nodes/Embroidery/EmbroideryTrigger.node');
const { EmbroideryTrigger } =
	require('../../nodes/Embroidery/EmbroideryTrigger.node.ts') as TriggerNode;

const { Container } = createRequire(require.resolve('n8n-core'))(
	'@n8n/di',
) as typeof import('@n8n/di');
const { Logger } = createRequire(require.resolve('n8n-core'))(
	'@n8n/backend-common',
) as typeof import('@n8n/backend-common');

export const triggerNodeType = 'n8n-nodes-embroidery.embroideryTrigger';
export const triggerNodeName = 'Embroidery Trigger';

const nodeTypes: INodeTypes = {
	getByName: () => new EmbroideryTrigger() as INodeType,
	getByNameAndVersion: () => new EmbroideryTrigger() as INodeType,
	getKnownTypes: () => ({}),
};

export interface PollHarnessOptions {
	parameters: INodeParameters;
	credentials: ApiCredentials;
	/** The credential's id in n8n; the trigger starts a fresh baseline when it changes. */
	credentialId?: string;
	/**
	 * n8n's poll cursor (a poller_state row exists for the node): each poll gets its own copy of the node's static
	 * data, committed after a scheduled poll that emits nothing and with every emission, never after the activation poll.
	 */
	pollCursor?: boolean;
	/** The trigger's node version (1 when not given, as in workflows saved before 1.1). */
	typeVersion?: number;
	/**
	 * n8n 2.41's scheduler (N8N_SCHEDULER_POLL_TRIGGERS_ENABLED): each scheduled poll gets a new Workflow and poll
	 * context (activation "update") built from the saved workflow, instead of the activation's one context.
	 */
	contextPerPoll?: boolean;
}

interface StagedCursor {
	seed: IDataObject;
	snapshot: IDataObject;
}

function copyOf(data: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(data)) as IDataObject;
}

let activationsInThisProcess = 0;

/** One active workflow holding the Embroidery Trigger, with n8n's save points for its static data. */
export class ActiveTriggerHarness {
	/** What n8n's database holds for the workflow's static data. */
	private database: IDataObject = {};

	private workflow!: Workflow;

	private workflowId = '';

	private executePoll!: (testingTrigger?: boolean) => Promise<void>;

	private lastEmission: INodeExecutionData[] | null = null;

	/** What n8n's poller_state table holds for the node when `pollCursor` is on. */
	private cursor: IDataObject = {};

	readonly emissions: INodeExecutionData[][] = [];

	readonly failures: Error[] = [];

	constructor(private options: PollHarnessOptions) {}

	/** Activates the workflow (n8n start, or the user publishing it): one poll that may throw, then a save. */
	async activate(
		activation: WorkflowActivateMode = 'activate',
	): Promise<INodeExecutionData[] | null> {
		await ensureBinaryDataService();
		// What the node keeps in memory is per workflow in one n8n process; each (re)start here is a new process.
		this.workflowId = `poll-harness-workflow-${++activationsInThisProcess}`;
		this.executePoll = this.pollOf(activation);
		const first = await this.runPoll(true);
		this.save(this.workflow);
		return first;
	}

	/** A workflow built from what the database holds, and its poll as n8n-core's PollTriggerExecutor runs it. */
	private pollOf(activation: WorkflowActivateMode): (testingTrigger?: boolean) => Promise<void> {
		const node: INode = {
			id: 'trigger-node',
			name: triggerNodeName,
			type: triggerNodeType,
			typeVersion: this.options.typeVersion ?? 1,
			position: [0, 0],
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				...this.options.parameters,
			},
			credentials: credentialReference(this.options.credentials, this.options.credentialId),
		};
		const workflow = new Workflow({
			id: this.workflowId,
			name: 'Poll harness',
			nodes: [node],
			connections: {},
			nodeTypes,
			active: true,
			staticData: JSON.parse(JSON.stringify(this.database)) as IDataObject,
		});
		const staging = new AsyncLocalStorage<StagedCursor>();
		const additionalData = {
			credentialsHelper: new HarnessCredentialsHelper(credentialsData(this.options.credentials)),
			restApiUrl: 'http://127.0.0.1/rest',
			instanceBaseUrl: 'http://127.0.0.1/',
			webhookBaseUrl: 'http://127.0.0.1/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
			formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
			variables: {},
			userId: 'poll-harness-user',
		} as unknown as IWorkflowExecuteAdditionalData;
		this.workflow = workflow;
		const context = new PollContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activation,
			(data) => {
				// n8n's __emit: save the static data (and the staged cursor), then start an execution with the items.
				this.commitStagedCursor(staging);
				this.save(workflow);
				this.lastEmission = data[0] ?? [];
				this.emissions.push(this.lastEmission);
			},
			(error) => {
				this.failures.push(error);
			},
			async () => this.commitStagedCursor(staging),
			async <T>(poll: () => Promise<T>) => {
				if (!this.options.pollCursor) return await poll();
				const seed = copyOf(this.cursor);
				return await staging.run({ seed, snapshot: copyOf(seed) }, poll);
			},
			() => {
				const staged = staging.getStore();
				if (!this.options.pollCursor) return workflow.getStaticData('node', node);
				if (!staged) throw new Error('The node read its static data outside of a poll');
				return staged.snapshot;
			},
		);
		return Container.get(PollTriggerExecutor).create(workflow, node, context, () => true);
	}

	/** A scheduled poll: errors go to n8n's error handling (recorded in `failures`), never to the caller. */
	async poll(): Promise<INodeExecutionData[] | null> {
		if (this.options.contextPerPoll) this.executePoll = this.pollOf('update');
		return await this.runPoll(false);
	}

	/** n8n stops without saving what only lived in memory, then starts and activates the workflow again. */
	async restart(): Promise<INodeExecutionData[] | null> {
		return await this.activate('init');
	}

	/** Changes node parameters; takes effect at the next activation, as republishing does. */
	updateParameters(parameters: INodeParameters): void {
		this.options = { ...this.options, parameters: { ...this.options.parameters, ...parameters } };
	}

	/** Points the node at another credential; takes effect at the next activation. */
	useCredential(credentials: ApiCredentials, credentialId: string): void {
		this.options = { ...this.options, credentials, credentialId };
	}

	savedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.database)) as IDataObject;
	}

	/** Everything emitted so far, flattened. */
	emittedItems(): INodeExecutionData[] {
		return this.emissions.flat();
	}

	private async runPoll(testingTrigger: boolean): Promise<INodeExecutionData[] | null> {
		this.lastEmission = null;
		await this.executePoll(testingTrigger);
		return this.lastEmission;
	}

	/** n8n's takeStagedCursor: the poll's copy is written to the cursor only when the poll changed it. */
	private commitStagedCursor(staging: AsyncLocalStorage<StagedCursor>): void {
		const staged = staging.getStore();
		if (!staged || isDeepStrictEqual(staged.snapshot, staged.seed)) return;
		this.cursor = copyOf(staged.snapshot);
		staged.seed = copyOf(staged.snapshot);
	}

	private save(workflow: Workflow): void {
		const staticData = workflow.staticData as IDataObject & { __dataChanged?: boolean };
		if (staticData.__dataChanged !== true) return;
		this.database = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		staticData.__dataChanged = false;
	}
}

/** Records the warnings n8n's logger receives while `fn` runs. */
export async function collectLoggedWarnings<T>(
	fn: () => Promise<T>,
): Promise<{ value: T; warnings: string[] }> {
	const logger = Container.get(Logger);
	const warnings: string[] = [];
	const original = logger.warn.bind(logger);
	logger.warn = (message: string, ...rest: unknown[]) => {
		warnings.push(message);
		return original(message, ...(rest as [])) as never;
	};
	try {
		return { value: await fn(), warnings };
	} finally {
		logger.warn = original;
	}
}

/** Runs the trigger's poll in manual mode (the editor's "Test step"): its items, or the error it throws. */
export async function testTriggerManually(
	options: PollHarnessOptions,
): Promise<INodeExecutionData[][] | null> {
	await ensureBinaryDataService();
	const node: INode = {
		id: 'trigger-node',
		name: triggerNodeName,
		type: triggerNodeType,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...options.parameters },
		credentials: credentialReference(options.credentials, options.credentialId),
	};
	const workflow = new Workflow({
		id: 'poll-harness-manual',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: false,
	});
	const additionalData = {
		credentialsHelper: new HarnessCredentialsHelper(credentialsData(options.credentials)),
		variables: {},
		userId: 'poll-harness-user',
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new PollContext(workflow, node, additionalData, 'manual', 'manual');
	const result = await new EmbroideryTrigger().poll.call(context);
	const staticData = workflow.staticData as IDataObject & { __dataChanged?: boolean };
	if (staticData.__dataChanged === true)
		throw new Error('A manual test run changed the static data');
	return result;
}
