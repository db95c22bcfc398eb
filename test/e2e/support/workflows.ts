/** Builds importable workflows for the suite: a Manual Trigger followed by a straight line of nodes. */
import type { WorkflowExport, WorkflowNode } from '../../../scripts/n8n';

export type Step = Omit<WorkflowNode, 'position'>;

export function manualWorkflow(id: string, name: string, steps: Step[]): WorkflowExport {
	const nodes: WorkflowNode[] = [
		{
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			parameters: {},
			position: [0, 0],
		},
		...steps.map((step, index): WorkflowNode => ({ ...step, position: [220 * (index + 1), 0] })),
	];
	return linearWorkflow(id, name, nodes);
}

export function linearWorkflow(id: string, name: string, nodes: WorkflowNode[]): WorkflowExport {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name,
		active: false,
		nodes: nodes.map((node, index) => ({ id: node.id ?? `${id}-${index}`, ...node })),
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** An "Edit Fields (Set)" node that outputs the given string fields. */
export function setFields(name: string, fields: Record<string, string | number>): Step {
	return {
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		parameters: {
			assignments: {
				assignments: Object.entries(fields).map(([key, value], index) => ({
					id: `${name}-${index}`,
					name: key,
					value,
					type: typeof value === 'number' ? 'number' : 'string',
				})),
			},
			options: {},
		},
	};
}

/** An Embroidery node (action) using the given stored credential. */
export function embroideryStep(
	name: string,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
	typeVersion = 1,
): Step {
	return {
		name,
		type: 'n8n-nodes-embroidery.embroidery',
		typeVersion,
		parameters,
		credentials: { embroideryApi: credential },
	};
}

/** A "Read/Write Files from Disk" node that reads one file into the binary property `field`. */
export function readFileStep(name: string, path: string, field = 'data'): Step {
	return {
		name,
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		parameters: { fileSelector: path, options: { dataPropertyName: field } },
	};
}
