import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as file from './file/File.resource';
import * as format from './format/Format.resource';
import * as job from './job/Job.resource';

export const credentials: INodeCredentialDescription[] = [{ name: 'embroideryApi', required: true }];

/** The resource selector, then each resource's operations and their parameters. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Account', value: 'account' },
			{ name: 'File', value: 'file' },
			{ name: 'Format', value: 'format' },
			{ name: 'Job', value: 'job' },
		],
		default: 'job',
	},
	...job.description,
	...format.description,
	...account.description,
	...file.description,
];
