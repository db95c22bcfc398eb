/**
 * The queue-mode suite's own workflows: three webhooks that move one 50 MB file through n8n's
 * binary store (the database in queue mode) and answer with what was stored, never the bytes.
 */
import type { WorkflowExport, WorkflowNode } from '../../../scripts/n8n';
import { linearWorkflow } from '../../e2e/support/workflows';
import { createConversion } from '../../support/jobParameters';

export const bigFileWorkflows = {
	/** n8n's HTTP Request node fetches the file, the Embroidery node uploads it as a conversion job. */
	upload: { id: 'queueBigUpload01', path: 'queue-big-upload' },
	/** The Embroidery node downloads that job's source (the same 50 MB) from the service. */
	download: { id: 'queueBigDownld01', path: 'queue-big-download' },
	/** n8n's HTTP Request node alone downloads the same file from a local static server. */
	httpRequest: { id: 'queueBigHttpReq1', path: 'queue-big-http-request' },
} as const;

function webhook(path: string): WorkflowNode {
	return {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: `embroidery-${path}`,
		position: [0, 0],
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
	};
}

function httpRequestDownload(url: string): WorkflowNode {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			url,
			options: { response: { response: { responseFormat: 'file', outputPropertyName: 'data' } } },
		},
	};
}

/** Answers with the stored binary's reference (its id names the store), never the bytes. */
function describeBinary(field: string): WorkflowNode {
	return {
		name: 'Stored file',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [0, 0],
		parameters: {
			assignments: {
				assignments: [
					{ id: 'stored-0', name: 'stored', value: `={{ $binary.${field} }}`, type: 'object' },
				],
			},
			options: {},
		},
	};
}

function placed(nodes: WorkflowNode[]): WorkflowNode[] {
	return nodes.map((node, index) => ({ ...node, position: [220 * index, 0] }));
}

export function bigFileWorkflowExports(credential: { id: string; name: string }): WorkflowExport[] {
	const embroideryApi = { embroideryApi: credential };
	return [
		linearWorkflow(
			bigFileWorkflows.upload.id,
			'Queue: 50 MB source uploaded as a conversion job',
			placed([
				webhook(bigFileWorkflows.upload.path),
				httpRequestDownload('={{ $json.body.url }}'),
				{
					name: 'Create job',
					type: 'n8n-nodes-embroidery.embroidery',
					typeVersion: 1,
					position: [0, 0],
					credentials: embroideryApi,
					parameters: createConversion({ options: {} }),
				},
				{
					name: 'Job',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [0, 0],
					parameters: {
						assignments: {
							assignments: [
								{ id: 'job-0', name: 'jobId', value: '={{ $json.id }}', type: 'string' },
								{ id: 'job-1', name: 'workflow', value: '={{ $json.workflow }}', type: 'string' },
								{
									id: 'job-2',
									name: 'stored',
									value: "={{ $('HTTP Request').item.binary.data }}",
									type: 'object',
								},
							],
						},
						options: {},
					},
				},
			]),
		),
		linearWorkflow(
			bigFileWorkflows.download.id,
			'Queue: 50 MB job source downloaded by the Embroidery node',
			placed([
				webhook(bigFileWorkflows.download.path),
				{
					name: 'Download source',
					type: 'n8n-nodes-embroidery.embroidery',
					typeVersion: 1,
					position: [0, 0],
					credentials: embroideryApi,
					parameters: {
						resource: 'job',
						operation: 'download',
						jobId: '={{ $json.body.jobId }}',
						workflow: 'conversion',
						files: ['source'],
						options: {},
					},
				},
				describeBinary('source'),
			]),
		),
		linearWorkflow(
			bigFileWorkflows.httpRequest.id,
			'Queue: 50 MB downloaded by the HTTP Request node',
			placed([
				webhook(bigFileWorkflows.httpRequest.path),
				httpRequestDownload('={{ $json.body.url }}'),
				describeBinary('data'),
			]),
		),
	];
}
