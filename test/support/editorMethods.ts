/**
 * The Embroidery node's editor methods (loadOptions dropdowns, listSearch lists) run in n8n-core's real
 * LoadOptionsContext, with or without a credential chosen.
 */
import { LoadOptionsContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { ensureBinaryDataService } from './binaryData';
import {
	credentialReference,
	credentialsData,
	HarnessCredentialsHelper,
	type ApiCredentials,
} from './n8nCredentials';
import { embroideryNodeType, nodeTypesWith, registeredNodeType } from './nodeTypes';

let loadOptionsCounter = 0;

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
		credentials: credentials && credentialReference(credentials),
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		nodes: [node],
		connections: {},
		nodeTypes: nodeTypesWith(new Map()),
		active: false,
	});
	const additionalData = {
		executionId: `harness-load-options-${++loadOptionsCounter}`,
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
	const method = registeredNodeType(embroideryNodeType).methods?.loadOptions?.[methodName];
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
	const method = registeredNodeType(embroideryNodeType).methods?.listSearch?.[methodName];
	if (!method) throw new Error(`No listSearch method ${methodName}`);
	return await method.call(await loadOptionsContext(credentials, parameters, 2), filter);
}
