import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { router } from './actions/router';
import { nodeVersions } from './actions/types';
import { credentials, properties } from './actions/versionDescription';
import { listSearch, loadOptions } from './methods';

export class Embroidery implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Embroidery',
		name: 'embroidery',
		icon: {
			light: 'file:../../icons/embroidery.svg',
			dark: 'file:../../icons/embroidery.dark.svg',
		},
		group: ['transform'],
		// 2: the Job picker, an optional Workflow and Simplify on by default; version 1 workflows keep
		// their fields and output.
		// 3: Simplify's ten fields (with the file links) and, in the AI tool variant, Output; version 2 keeps its Simplify.
		// Every operation has an AI tool text for each version (actions/types.ts, ToolTexts).
		version: [...nodeVersions],
		defaultVersion: nodeVersions[nodeVersions.length - 1],
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

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
