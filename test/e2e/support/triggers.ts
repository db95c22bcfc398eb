/**
 * What the trigger's e2e files share: the Embroidery Trigger workflow (with an error workflow, or none),
 * importing it with a fresh sandbox account whose credential goes through a loopback proxy, starting n8n and
 * publishing it, and waits on n8n's executions.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { waitForExecutions, type ExecutionSummary } from '../../../scripts/demo';
import { examplesDir } from '../../../scripts/examples';
import { LocalN8n, n8nRuntime, nodeItems, sleep, type WorkflowExport } from '../../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../../scripts/sandbox-client';
import type { VariantService } from '../../support/variantService';
import { e2eOwner, importAccountCredential, type E2eEnvironment } from './environment';
import { linearWorkflow } from './workflows';

export { waitForExecutions };

export const credential = { id: 'embroideryTrigFail', name: 'Embroidery trigger behind a proxy' };

type CredentialRef = { id: string; name: string };

/**
 * The Embroidery Trigger polling every minute for every ending, into a No Op; n8n runs `errorWorkflowId`
 * when an execution of it fails, if one is given.
 */
export function triggerWorkflow(
	id: string,
	errorWorkflowId?: string,
	options: Record<string, unknown> = {},
	ref: CredentialRef = credential,
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
			credentials: { embroideryApi: ref },
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
	if (errorWorkflowId === undefined) return workflow;
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

/** Converts the examples' Star.JEF to DST on the account `direct` reaches, and waits for the job's end. */
export async function convertedStar(direct: {
	baseUrl: string;
	demoKey: string;
}): Promise<{ id: string; workflow: string }> {
	const design = {
		name: 'Star.JEF',
		bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
	};
	const job = await createJob(direct, { workflow: 'conversion', format: 'dst' }, design);
	await waitForJobEnd(direct, job);
	return job;
}

/**
 * The trigger emits job `jobId` in one execution, alone; then two more scheduled polls (job listings through
 * the proxy) emit nothing again: that one stays the workflow's only finished execution.
 */
export async function expectEmittedOnce(
	n8n: LocalN8n,
	triggerId: string,
	variant: VariantService,
	jobId: string,
): Promise<void> {
	const [emitted] = await waitForExecutions(n8n, triggerId, 1, 150_000);
	const items = nodeItems(await n8n.getExecution(emitted.id), 'Job finished');
	expect(items.map((item) => item.json.id)).toEqual([jobId]);
	const listedAtEmission = listingsOf(variant);
	const deadline = Date.now() + 180_000;
	while (listingsOf(variant) < listedAtEmission + 2 && Date.now() < deadline) await sleep(1_000);
	expect(listingsOf(variant)).toBeGreaterThanOrEqual(listedAtEmission + 2);
	await sleep(5_000);
	const executions = await waitForExecutions(n8n, triggerId, 1, 10_000);
	expect(executions.map((execution) => execution.id)).toEqual([emitted.id]);
}

/**
 * The trigger files' set-up: a fresh account behind the proxy, its credential, and the trigger workflow (with
 * its error workflow, when `errorsId` is given) imported into `n8n`. Returns the account's direct access to
 * the sandbox, to create jobs the trigger then sees through the proxy.
 */
export async function importTrigger(
	n8n: LocalN8n,
	environment: E2eEnvironment,
	variant: VariantService,
	trigger: {
		triggerId: string;
		errorsId?: string;
		options?: Record<string, unknown>;
		credential?: CredentialRef;
	},
): Promise<{ baseUrl: string; demoKey: string }> {
	const ref = trigger.credential ?? credential;
	const account = await importAccountCredential(n8n, environment.sandbox, {
		ref,
		creditBalance: 10,
		baseUrl: variant.baseUrl,
	});
	const { triggerId, errorsId, options } = trigger;
	await n8n.importWorkflows([
		...(errorsId === undefined ? [] : [errorWorkflow(errorsId)]),
		triggerWorkflow(triggerId, errorsId, options, ref),
	]);
	return { baseUrl: environment.sandbox.baseUrl, demoKey: account.key };
}

/**
 * Starts n8n, signs in, imports the trigger (with a fresh proxied account) and publishes it over REST as the
 * editor's Publish does (and its error workflow: n8n 2.41 runs only a published one), then waits until n8n has
 * activated it. In n8n 2.x the imports go over REST too: no CLI process (about 5 s of CPU each) besides the start;
 * in n8n 1.x the credential does, and the workflows go through the CLI.
 */
export async function startAndPublish(
	n8n: LocalN8n,
	environment: E2eEnvironment,
	variant: VariantService,
	trigger: Parameters<typeof importTrigger>[3],
): Promise<{ baseUrl: string; demoKey: string }> {
	await n8n.start();
	await n8n.signIn(e2eOwner);
	const direct = await importTrigger(n8n, environment, variant, trigger);
	const { triggerId, errorsId } = trigger;
	const errors = errorsId !== undefined && n8nRuntime().major >= 2 ? [errorsId] : [];
	for (const id of [...errors, triggerId]) await n8n.activateWorkflow(id);
	await n8n.waitForActivationOverRest([triggerId]);
	return direct;
}
