/**
 * What the trigger's e2e files share: the Embroidery Trigger workflow with its error workflow, publishing,
 * waits on n8n's executions, and a fresh sandbox account whose credential goes through a loopback proxy.
 */
import { waitForExecutions, type ExecutionSummary } from '../../../scripts/demo';
import { LocalN8n, sleep, type CredentialExport, type WorkflowExport } from '../../../scripts/n8n';
import { sandboxAdmin } from '../../support/sandbox';
import type { VariantService } from '../../support/variantService';
import type { E2eEnvironment } from './environment';
import { linearWorkflow } from './workflows';

export { waitForExecutions };

export const credential = { id: 'embroideryTrigFail', name: 'Embroidery trigger behind a proxy' };

export function triggerWorkflow(
	id: string,
	errorWorkflowId: string,
	options: Record<string, unknown> = {},
): WorkflowExport {
	const workflow = linearWorkflow(id, `Trigger ${id}`, [
		{
			name: 'Job finished',
			type: 'n8n-nodes-embroidery.embroideryTrigger',
			typeVersion: 1.2,
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				events: ['completed', 'failed'],
				workflow: 'both',
				options,
			},
			credentials: { embroideryApi: credential },
			position: [0, 0],
		},
		{
			name: 'Received',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			parameters: {},
			position: [220, 0],
		},
	]);
	return { ...workflow, settings: { ...workflow.settings, errorWorkflow: errorWorkflowId } };
}

/** The error workflow: n8n runs it with what failed, and keeps that run as an execution of its own. */
export function errorWorkflow(id: string): WorkflowExport {
	return linearWorkflow(id, `Errors of ${id}`, [
		{
			name: 'Error Trigger',
			type: 'n8n-nodes-base.errorTrigger',
			typeVersion: 1,
			parameters: {},
			position: [0, 0],
		},
	]);
}

/** Publishes (2.x) or activates (1.x) a workflow; n8n 2.41 runs only a published error workflow. */
export async function publish(n8n: LocalN8n, ids: string[]): Promise<void> {
	for (const id of ids) await n8n.publishWorkflow(id);
}

/** Polls `check` every second (real time: n8n's polls run on its own clock) until it gives a value. */
export async function until<T>(
	what: string,
	check: () => Promise<T | undefined>,
	timeoutMs: number,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(1_000);
	}
}

export async function executionsOf(n8n: LocalN8n, workflowId: string): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { results } = await n8n.rest<{ results: ExecutionSummary[] }>(
		'GET',
		`/rest/executions?filter=${filter}`,
	);
	return results;
}

/** The job listings (`GET /jobs`) the proxy has passed on so far: one per poll. */
export function listingsOf(variant: VariantService): number {
	return variant.requests.filter((request) => request.route === 'GET /jobs').length;
}

/** A fresh account: its credential through the proxy, and its key to reach the sandbox directly. */
export async function proxiedAccount(
	environment: E2eEnvironment,
	variant: VariantService,
): Promise<{ exported: CredentialExport; apiKey: string }> {
	const { key } = await sandboxAdmin(environment.sandbox).createAccountWithKey({
		plan: 'credits',
		creditBalance: 10,
	});
	return {
		exported: {
			...credential,
			type: 'embroideryApi',
			data: { apiKey: key, baseUrl: variant.baseUrl },
		},
		apiKey: key,
	};
}
