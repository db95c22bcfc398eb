/** Activating a workflow in a RUNNING n8n, as the editor's Publish (2.x) or Active switch (1.x) does. */
import type { LocalN8n } from '../../../scripts/n8n';

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
