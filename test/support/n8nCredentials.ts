/**
 * The Embroidery API credential as n8n handles it for a node the harness runs: decrypted data with its type's
 * defaults, the declarative authentication applied to each request, and the credential's Test.
 */
import { createHash } from 'node:crypto';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	ICredentialsHelper,
	Workflow,
	createEmptyRunExecutionData,
	isExpression,
} from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentials,
	INodeProperties,
	INodeType,
	IWorkflowExecuteAdditionalData,
	IRequestOptionsSimplified,
} from 'n8n-workflow';

import { EmbroideryApi } from '../../credentials/EmbroideryApi.credentials';
import { ensureBinaryDataService } from './binaryData';
import { nodeTypesWith } from './nodeTypes';

export interface ApiCredentials {
	apiKey: string;
	baseUrl: string;
}

/**
 * The id n8n would give these credentials: one per saved credential, so one per key here. The node paces and
 * learns limits per credential (transport/rateLimit.ts); one id for every account's key made a test's
 * requests wait out the 60 a minute that earlier tests with other keys had used (98 of a manual poll's 100 s).
 */
export function credentialIdOf(credentials: ApiCredentials): string {
	const digest = createHash('sha256').update(`${credentials.baseUrl}\n${credentials.apiKey}`);
	return `cred-${digest.digest('hex').slice(0, 12)}`;
}

/** A node's reference to these credentials, as a saved workflow holds it: `id` when a test names its own. */
export function credentialReference(
	credentials: ApiCredentials,
	id = credentialIdOf(credentials),
): INodeCredentials {
	return { embroideryApi: { id, name: 'Embroidery API' } };
}

const credentialTypes = new Map<string, ICredentialType>([['embroideryApi', new EmbroideryApi()]]);

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
export function credentialsData(
	credentials?: ApiCredentials,
): Record<string, ICredentialDataDecryptedObject> {
	return credentials ? { embroideryApi: { ...credentials } } : {};
}

let credentialTestCounter = 0;

export type CredentialTestResult =
	| { status: 'OK'; message: string }
	| { status: 'Error'; message: string };

/**
 * Runs the credential's declarative `test` request the way n8n's credentials tester does:
 * a temporary node whose only parameter routes that request, executed by n8n-core's RoutingNode
 * with the credential's authentication, and the `rules` mapping failing status codes to messages.
 */
export async function testCredential(credentials: ApiCredentials): Promise<CredentialTestResult> {
	const credentialId = credentialIdOf(credentials);
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
		credentials: credentialReference(credentials, credentialId),
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesWith(new Map([['harness.credentialTest', tempType]])),
	});
	const additionalData = {
		executionId: `harness-credential-test-${++credentialTestCounter}`,
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
		id: credentialId,
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
