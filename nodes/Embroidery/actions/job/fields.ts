import type { INodeProperties } from 'n8n-workflow';

import { jobIdInLinkPattern, jobIdPattern, jobLinkPattern } from '../../transport';
import { shownFromVersion, shownInVersions } from '../common.descriptions';
import type { NodeVersion } from '../types';

/** Shown from node version 2 on: the job picker, the optional workflow. */
const fromVersion2 = shownFromVersion(2);
const version1Only = shownInVersions(1);

/** Version 1: Job ID and Workflow, kept side by side because the workflow selects the job's routes. */
export const jobRefFields: INodeProperties[] = [
	{
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		required: true,
		default: '={{ $json.id }}',
		placeholder: 'e.g. 01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
		description: 'The 26-character ID of the job, as returned when it was created',
		displayOptions: { show: version1Only },
	},
	{
		displayName: 'Workflow',
		name: 'workflow',
		type: 'string',
		required: true,
		default: '={{ $json.workflow }}',
		placeholder: 'e.g. conversion',
		hint: 'Conversion or digitising: the workflow returned with the job ID',
		description:
			'The workflow of the job, returned together with its ID. It selects the right route for ' +
			'status, retry and unlock.',
		displayOptions: { show: version1Only },
	},
];

/** Version 2: the job as a resource locator, and a Workflow the node can find by itself. */
export function jobLocatorFields(several = false): INodeProperties[] {
	const idValidation = several
		? `^\\s*${jobIdPattern}(\\s*,\\s*${jobIdPattern})*\\s*$`
		: `^\\s*${jobIdPattern}\\s*$`;
	return [
		{
			displayName: several ? 'Jobs' : 'Job',
			name: 'jobId',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'id', value: '={{ $json.id }}' },
			description: several
				? "The jobs to wait for. By default the ID of the incoming item, so the node works right after 'Create'."
				: 'The job to use. By default the ID of the incoming item, so the node works right ' +
					"after 'Create' or the trigger.",
			displayOptions: { show: fromVersion2 },
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: 'Select a recent job…',
					typeOptions: {
						searchListMethod: 'searchJobs',
						searchable: true,
						searchFilterRequired: false,
					},
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: several
						? 'e.g. 01J9Z3Q4W8Y6V5T2R1P0N9M8K7, 01J9Z3R2…'
						: 'e.g. 01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
					hint: several ? '26-character job IDs, separated by commas' : 'The 26-character job ID',
					validation: [
						{
							type: 'regex',
							properties: {
								regex: idValidation,
								errorMessage: several
									? 'Each job ID has 26 letters and digits, separated by commas'
									: 'A job ID has 26 letters and digits, like 01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
							},
						},
					],
				},
				{
					displayName: 'By URL',
					name: 'url',
					type: 'string',
					placeholder:
						'e.g. https://api.example.com/api/v1/jobs/conversion/01J9Z3Q4W8Y6V5T2R1P0N9M8K7',
					hint: "The job's API link: base URL, then /jobs/conversion/ or /jobs/digitising/ and the ID",
					validation: [
						{
							type: 'regex',
							properties: {
								regex: jobLinkPattern,
								errorMessage:
									'Not a job link: it ends in /jobs/conversion/{ID} or /jobs/digitising/{ID}',
							},
						},
					],
					extractValue: { type: 'regex', regex: jobIdInLinkPattern },
				},
			],
		},
		{
			displayName: 'Workflow',
			name: 'workflow',
			type: 'options',
			default: 'detect',
			options: [
				{ name: 'Conversion', value: 'conversion' },
				{
					name: 'Detect',
					value: 'detect',
					description:
						'Take it from the incoming item when that item is the job, otherwise look it up',
				},
				{ name: 'Digitising', value: 'digitising' },
			],
			hint:
				'Detect (or empty) takes it from the incoming item when that item is the job; otherwise ' +
				'it costs one or two extra requests. A job picked from the list or given by URL brings its own.',
			description:
				'The workflow of the job (conversion or digitising), which selects the route of its requests',
			displayOptions: { show: fromVersion2 },
		},
	];
}

/**
 * What a model is told to fill to name the job (or jobs): version 1 has Job ID and Workflow side by side, both
 * required; from version 2 a Job (or Jobs) field and a Workflow the node can detect.
 */
export function jobFieldsToFill(version: NodeVersion, jobField: 'Job' | 'Jobs' = 'Job'): string {
	if (version === 1)
		return (
			'Fill Job ID (the 26-character id) and Workflow ("conversion" or "digitising") from the job ' +
			'as Create or Get Many returned it.'
		);
	const what =
		jobField === 'Jobs'
			? 'one or more 26-character job ids, separated by commas,'
			: 'the 26-character job id';
	return (
		`Fill ${jobField} with ${what} as Create or Get Many returned it. Workflow is optional: ` +
		`"conversion" or "digitising" when known, otherwise "detect" and the node finds it (one or ` +
		`two extra requests).`
	);
}

/** What version 3's Get and Get Many answer with by default (Output: Simplified): a model cannot read binary data. */
export const version3JobAnswer =
	'Answers with id, workflow, status, downloadsUnlocked, outputUrl (signed link to the ' +
	'machine file, null until Unlock), previewUrl (signed link to the preview image, watermarked ' +
	'until Unlock), warnings, failureCode, failureReason and attemptCount. Give the user the ' +
	'links: they expire, so run Get again for fresh ones.';
