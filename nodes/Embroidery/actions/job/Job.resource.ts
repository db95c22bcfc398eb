import { updateDisplayOptions } from 'n8n-workflow';
import type { INodeProperties } from 'n8n-workflow';

import { jobsListingSize } from '../../transport';
import * as create from './create.operation';
import * as download from './download.operation';
import { simplifyFieldsFromVersion3 } from './fields';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as retry from './retry.operation';
import * as unlock from './unlock.operation';
import * as waitForCompletion from './waitForCompletion.operation';

export { create, download, get, getMany, retry, unlock, waitForCompletion };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['job'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Upload files to convert or digitise, one job per file; each job counts against the ' +
					"account's processing allowance",
				action: 'Create jobs',
			},
			{
				name: 'Download',
				value: 'download',
				description:
					"Download a job's output files, preview or source as binary data; machine files need an unlocked job",
				action: 'Download job files',
			},
			{
				name: 'Get',
				value: 'get',
				description: "Get a job's status and details",
				action: 'Get job',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: `List the ${jobsListingSize} most recent jobs`,
				action: 'Get many jobs',
			},
			{
				name: 'Retry',
				value: 'retry',
				description: 'Queue a failed job again',
				action: 'Retry job',
			},
			{
				name: 'Unlock',
				value: 'unlock',
				description:
					"Unlock a completed job's machine files: spends a subscription entitlement or credits",
				action: 'Unlock job',
			},
			{
				name: 'Wait for Completion',
				value: 'waitForCompletion',
				description: 'Wait until jobs are completed or failed',
				action: 'Wait for jobs to complete',
			},
		],
		default: 'create',
	},
	...create.description,
	...download.description,
	...get.description,
	...getMany.description,
	...retry.description,
	...unlock.description,
	...waitForCompletion.description,
	// From version 3 the router simplifies the job items these return too (Get and Get Many shape their own).
	...updateDisplayOptions(
		{ show: { resource: ['job'], operation: ['unlock', 'waitForCompletion'] } },
		simplifyFieldsFromVersion3,
	),
	...updateDisplayOptions(
		{ show: { resource: ['job'], operation: ['create'], waitForCompletion: [true] } },
		simplifyFieldsFromVersion3,
	),
];
