import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { parameterAdvice } from './nextSteps';

export const credentialType = 'embroideryApi';

/** Every n8n context the Embroidery nodes call the API from. */
export type EmbroideryContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** A readable body that n8n's prepareBinaryData accepts. */
export type FileStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

export interface EmbroideryCredentials {
	apiKey: string;
	baseUrl: string;
}

/** The credential's base URL without trailing slashes; a clear error when it is not an http(s) URL. */
export function normaliseBaseUrl(context: EmbroideryContext, baseUrl: unknown): string {
	const text = typeof baseUrl === 'string' ? baseUrl.trim().replace(/\/+$/, '') : '';
	if (!/^https?:\/\/[^/]+/i.test(text)) {
		throw new NodeOperationError(
			context.getNode(),
			`The 'Base URL' of the Embroidery API credential is not an http(s) URL: "${String(baseUrl)}"`,
			{
				description: parameterAdvice.baseUrl,
			},
		);
	}
	return text;
}

export async function credentialsOf(context: EmbroideryContext): Promise<EmbroideryCredentials> {
	// A node just added to the canvas asks for its lists before a credential is chosen.
	if (!context.getNode().credentials?.[credentialType]) {
		throw new NodeOperationError(context.getNode(), parameterAdvice.noCredential.message, {
			description: parameterAdvice.noCredential.description,
		});
	}
	const data = await context.getCredentials<EmbroideryCredentials>(credentialType);
	return {
		apiKey: typeof data.apiKey === 'string' ? data.apiKey : '',
		baseUrl: normaliseBaseUrl(context, data.baseUrl),
	};
}

export function cancelSignalOf(context: EmbroideryContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/**
 * The context seen with another cancel signal (one that also follows the execution's own where it should):
 * n8n puts that signal on every request made through the context, so the node can end its own requests (a
 * download gone idle, a wait or a poll out of time) while Stop keeps working.
 */
export function withCancelSignal<T extends EmbroideryContext>(context: T, signal: AbortSignal): T {
	return Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as T;
}

/** The credential a node uses, by id (by name in contexts that have no id): what per-account memory is keyed by. */
export function credentialIdOf(context: EmbroideryContext): string {
	const credential = context.getNode().credentials?.[credentialType];
	return credential?.id ?? credential?.name ?? 'default';
}
