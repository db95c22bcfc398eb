import type { INodeProperties } from 'n8n-workflow';

/** Job ID and Workflow, kept side by side because the workflow selects the job's routes. */
export const jobRefFields: INodeProperties[] = [
	{
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		required: true,
		default: '={{ $json.id }}',
		placeholder: '01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
		description: 'The 26-character ID of the job, as returned when it was created',
	},
	{
		displayName: 'Workflow',
		name: 'workflow',
		type: 'string',
		required: true,
		default: '={{ $json.workflow }}',
		placeholder: 'conversion',
		hint: 'conversion or digitising: the workflow returned with the job ID',
		description:
			'The workflow of the job, returned together with its ID. It selects the right route for status, retry and unlock.',
	},
];
