/**
 * The node types the harness runs: the Embroidery node under its package's name, node types a test registers
 * (the trigger, probes), and n8n's lookup over them.
 */
import type { IExecuteFunctions, INodeType, INodeTypes } from 'n8n-workflow';

import { useRegExpEngine } from './regexEngine';

export const packageName = 'n8n-nodes-embroidery';
export const embroideryNodeType = `${packageName}.embroidery`;

const nodeTypeRegistry = new Map<string, INodeType>();

/** Makes a node type runnable by the harness (the trigger engineer registers theirs the same way). */
export function registerNodeType(name: string, nodeType: INodeType): void {
	nodeTypeRegistry.set(name, nodeType);
}

/** A registered node type (the Embroidery node's editor methods are read from it). */
export function registeredNodeType(name: string): INodeType {
	const type = nodeTypeRegistry.get(name);
	if (!type) throw new Error(`Unknown node type ${name}`);
	return type;
}

// Named with its extension: beside Embroidery.node.ts lies the codex Embroidery.node.json, which
// Node's resolver (under tsx) would otherwise pick for the extension-less path.
const { Embroidery } =
	require('../../nodes/Embroidery/Embroidery.node.ts') as typeof import('../../nodes/Embroidery/Embroidery.node');
registerNodeType(embroideryNodeType, new Embroidery());

// Every n8n-core run of the harness builds its workflow's node types here (nodeTypesWith): the engine is set
// once for the test file's n8n-workflow.
useRegExpEngine();

/** n8n's node type lookup for one workflow: its `extra` types first, then the registered ones. */
export function nodeTypesWith(extra: Map<string, INodeType>): INodeTypes {
	const lookup = (name: string) => {
		return extra.get(name) ?? registeredNodeType(name);
	};
	return {
		getByName: lookup,
		getByNameAndVersion: lookup,
		getKnownTypes: () => ({}),
	};
}
/** A node type using the embroideryApi credential that runs `work` and passes one empty item on. */
export function testNodeType(
	name: string,
	description: string,
	work: (context: IExecuteFunctions) => Promise<void>,
): INodeType {
	return {
		description: {
			displayName: name,
			name,
			group: ['transform'],
			version: 1,
			description,
			defaults: { name },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'embroideryApi', required: true }],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			await work(this);
			return [[{ json: {}, pairedItem: { item: 0 } }]];
		},
	};
}
