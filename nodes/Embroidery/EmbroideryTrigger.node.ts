import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { triggerProperties } from './trigger/description';
import { pollForEndedJobs } from './trigger/pollTrigger';

export class EmbroideryTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Embroidery Trigger',
		name: 'embroideryTrigger',
		icon: { light: 'file:../../icons/embroidery.svg', dark: 'file:../../icons/embroidery.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + $parameter["events"].join(", ")}}',
		description: 'Starts the workflow when an embroidery conversion or digitising job completes or fails',
		defaults: { name: 'Embroidery Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'embroideryApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollForEndedJobs(this);
	}
}
