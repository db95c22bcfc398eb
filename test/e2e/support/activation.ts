/** Activating a workflow in a RUNNING n8n, as the editor's Publish (2.x) or Active switch (1.x) does. */
import { n8nRuntime, type LocalN8n } from '../../../scripts/n8n';

/**
 * Activates (publishes) a workflow over n8n's REST API while n8n runs: n8n 1.123 and 2.41 both take
 * `POST /rest/workflows/:id/activate` with the version to activate, which is how the editor does it, so
 * the trigger sees the activation mode 'activate' (not 'init', as for a workflow published before
 * `n8n start`). Needs `signIn`.
 */
export async function activateInRunningN8n(n8n: LocalN8n, workflowId: string): Promise<void> {
	const { versionId } = await n8n.rest<{ versionId: string }>(
		'GET',
		`/rest/workflows/${workflowId}`,
	);
	await n8n.rest('POST', `/rest/workflows/${workflowId}/activate`, { versionId });
}

/**
 * Waits until a workflow activated with `activateInRunningN8n` is active: n8n 2.x activates it in the background
 * (its publication status says when); n8n 1.x activated it before answering, and logs nothing of it.
 */
export async function waitForRestActivation(n8n: LocalN8n, workflowId: string): Promise<void> {
	if (n8nRuntime().major >= 2) await n8n.waitForActivation([workflowId]);
}
