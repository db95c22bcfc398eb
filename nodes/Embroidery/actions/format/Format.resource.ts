import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['format'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the embroidery formats and the artwork types the service accepts',
				action: 'Get many formats',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
