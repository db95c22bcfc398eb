import type { INodeProperties } from 'n8n-workflow';

import * as getUsage from './getUsage.operation';

export { getUsage };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Usage',
				value: 'getUsage',
				description:
					"Get the account's free previews, credits, costs and daily and monthly allowances",
				action: 'Get account usage',
			},
		],
		default: 'getUsage',
	},
	...getUsage.description,
];
