import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';

import { jobShaping } from './helpers/simplify';
import { triggerProperties } from './trigger/description';
import { pollForEndedJobs } from './trigger/pollTrigger';

export class EmbroideryTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Embroidery Trigger',
		name: 'embroideryTrigger',
		icon: {
			light: 'file:../../icons/embroidery.svg',
			dark: 'file:../../icons/embroidery.dark.svg',
		},
		group: ['trigger'],
		// 1.1: Simplify, on by default; version 1 triggers keep their output. 1.2: Simplify's ten
		// fields; 1.1 keeps its own.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{"On " + $parameter["events"].join(", ")}}',
		// n8n's nodes panel shows one "Embroidery" entry for both nodes, with the trigger's description.
		description:
			'Convert embroidery machine files, digitise artwork and start workflows when jobs complete or fail',
		defaults: { name: 'Embroidery Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'embroideryApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const output = await pollForEndedJobs(this);
		const version = this.getNode().typeVersion;
		const simplify = version >= 1.1 && (this.getNodeParameter('simplify', true) as boolean);
		if (!output || !simplify) return output;
		// 1.2 shapes a job as the action node's version 3 does, 1.1 as its version 2.
		const simplified = version >= 1.2 ? jobShaping.simplify : jobShaping.simplifyAsVersion2;
		return output.map((items) => items.map((item) => ({ ...item, json: simplified(item.json) })));
	}
}
