import type { INodeProperties } from 'n8n-workflow';

import * as download from './download.operation';

export { download };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description: 'Download a file from a complete signed URL',
				action: 'Download file',
			},
		],
		default: 'download',
	},
	...download.description,
];
