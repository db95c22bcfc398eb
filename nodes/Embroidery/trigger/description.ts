import type { INodeProperties } from 'n8n-workflow';

import {
	shownFromVersion,
	shownInVersions,
	simplifyProperty,
	simplifyPropertyAsVersion2,
} from '../actions/common.descriptions';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Trigger On',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['completed', 'failed'],
		options: [
			{
				name: 'Job Completed',
				value: 'completed',
				description:
					'A job finished and its preview and machine files are ready; each job starts the workflow once',
			},
			{
				name: 'Job Failed',
				value: 'failed',
				description:
					'A job could not be processed; the item says why, and each ending starts the workflow once',
			},
		],
	},
	{
		displayName: 'Workflow',
		name: 'workflow',
		type: 'options',
		default: 'both',
		description: 'Which kind of job to watch',
		options: [
			{ name: 'All', value: 'both', description: 'Conversions and digitising jobs' },
			{
				name: 'Conversion',
				value: 'conversion',
				description: 'Machine files converted to another format',
			},
			{ name: 'Digitising', value: 'digitising', description: 'Artwork turned into stitches' },
		],
	},
	// Version 1 triggers keep their output as it was; 1.1 keeps the Simplify it shipped with.
	simplifyPropertyAsVersion2({ show: shownInVersions(1.1) }),
	simplifyProperty({ show: shownFromVersion(1.2) }),
	{
		displayName: 'Show Warnings',
		name: 'showWarnings',
		type: 'boolean',
		default: true,
		displayOptions: { show: shownFromVersion(1.1) },
		description:
			"Whether to put each completed job's warnings (compatibility or production notes from " +
			"the service) on its item. Costs one request per completed job, unless 'Include Full " +
			"Job' fetches it anyway.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Download Files',
				name: 'downloadFiles',
				type: 'boolean',
				default: false,
				description:
					'Whether to attach the files of a completed job as binary data: the preview always ' +
					'(field "preview", watermarked while the job is locked), the machine files once the ' +
					'job is unlocked (field "output")',
			},
			{
				displayName: 'Include Full Job',
				name: 'includeFullJob',
				type: 'boolean',
				default: false,
				description:
					'Whether to fetch the detailed job (warnings, metrics, outputs, events) for each ' +
					'job that ended. Costs one request per job.',
			},
		],
	},
];
