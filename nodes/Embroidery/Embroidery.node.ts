import { NodeConnectionTypes } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { router } from './actions/router';
import { credentials, properties } from './actions/versionDescription';
import { loadOptions } from './methods';

export class Embroidery implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Embroidery',
		name: 'embroidery',
		icon: { light: 'file:../../icons/embroidery.svg', dark: 'file:../../icons/embroidery.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Convert embroidery machine files, digitise artwork into stitches, wait for jobs and download results',
		defaults: { name: 'Embroidery' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties,
	};

	methods = { loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
