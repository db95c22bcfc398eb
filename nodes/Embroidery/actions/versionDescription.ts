import type { IDisplayOptions, INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { jobsListingSize } from '../transport';
import * as account from './account/Account.resource';
import * as file from './file/File.resource';
import * as format from './format/Format.resource';
import { fromVersion3, version1Only } from './job/fields';
import * as job from './job/Job.resource';

export const credentials: INodeCredentialDescription[] = [
	{ name: 'embroideryApi', required: true },
];

/** Version 1 has Job ID and Workflow side by side, both required. */
const version1IdFields =
	'Fill Job ID (the 26-character id) and Workflow ("conversion" or "digitising") from the job ' +
	'as Create or Get Many returned it.';

/** Version 2 has a Job (or Jobs) field and a Workflow the node can detect. */
function idFields(jobField: 'Job' | 'Jobs'): string {
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

const create =
	`Starts an embroidery job from one file and returns the job's id and workflow (keep both). ` +
	`Workflow "conversion" turns an embroidery machine file (PES, DST, JEF, EXP, VP3, ...) into ` +
	`the Output Format; "digitising" turns artwork (JPG, PNG, SVG or WebP) into stitches and also ` +
	`needs Width in millimetres (10-300) and Colour Count (1-24). Output Format is a writable ` +
	`format key such as "dst" or "pes". Source URL is a public http(s) link to the file (at most ` +
	`50 MB for conversion, 20 MB for artwork). Cost: each job counts against the account's daily ` +
	`and monthly job allowance (a free account also uses a free preview); no credits are spent ` +
	`until Unlock. With Wait for Completion the answer is the finished job (status, metrics, ` +
	`warnings); its machine file stays locked until Unlock.`;
const getMany =
	`Lists the account's most recent jobs (at most ${jobsListingSize}), newest first, with id, ` +
	`workflow, status and metrics. Free. Optional filters: status and workflow.`;
const unlock =
	"Unlocks a completed job's machine files so they can be downloaded. COSTS MONEY: spends one " +
	'subscription entitlement or, without one, processing credits (Get Usage tells ' +
	'conversionCreditCost and digitisingCreditCost); it fails with 422 when the account cannot ' +
	'pay and never buys credits. Call it only when the user wants the machine file.';
const download =
	"Downloads a job's files as binary data: the stitch preview (watermarked while locked), the " +
	'source, or the machine files (only after Unlock). Free.';
const retry =
	'Queues a failed job again, for example after engine_error, while its source is kept (24 hours). Free.';

/**
 * What the Embroidery Tool tells a model (an AI agent, an MCP client) about each operation: what it
 * does, what it costs and which fields to fill. Read as the tool's description by n8n 1.x and 2.x alike.
 * These are version 2's; version3ToolDescriptions (the default version) and version1ToolDescriptions keep
 * their own where the versions' fields or answers differ, so a saved tool keeps the description it was given.
 */
export const toolDescriptions: Record<string, Record<string, string>> = {
	job: {
		create,
		get:
			`Returns one job: status (queued, processing, completed or failed), failureCode and ` +
			`failureReason, metrics (stitches, colours, size in mm), warnings, whether its machine ` +
			`files are unlocked, and its file names and sizes. Signed file links and the raw job only ` +
			`when Simplify is off. Free. ${idFields('Job')}`,
		getMany,
		waitForCompletion: `Waits until jobs are completed or failed and returns each of them. Free. ${idFields('Jobs')}`,
		unlock: `${unlock} ${idFields('Job')}`,
		download: `${download} ${idFields('Job')}`,
		retry: `${retry} ${idFields('Job')}`,
	},
	format: {
		getMany:
			'Lists the embroidery machine formats the service can read and write, with ' +
			'compatibility warnings, and the artwork file types digitising accepts. Free; nothing to fill.',
	},
	account: {
		getUsage:
			'Returns what the account can still spend: credit balance, unlock entitlements, free ' +
			'previews, daily and monthly job allowances, and the credit cost of unlocking a ' +
			'conversion and a digitising job. Free; nothing to fill. Call it before Unlock to check ' +
			'the account can pay.',
	},
	file: {
		download:
			'Downloads one signed file link exactly as a job returned it (its downloadUrl or ' +
			'previewUrl; Get gives links only with Simplify off) as binary data. Free. Fill URL with ' +
			'the complete link.',
	},
};

/** What version 3's Get answers with by default (Output: Simplified), for a model that cannot read binary data. */
const version3Answer =
	'Answers with id, workflow, status, downloadsUnlocked, outputUrl (signed link to the ' +
	'machine file, null until Unlock), previewUrl (signed link to the preview image, watermarked ' +
	'until Unlock), warnings, failureCode, failureReason and attemptCount. Give the user the ' +
	'links: they expire, so run Get again for fresh ones.';

/** Version 3's texts: the answers carry the file links (Output), so the model can hand them on. */
export const version3ToolDescriptions: Record<string, Record<string, string>> = {
	job: {
		...toolDescriptions.job,
		get: `Returns one job. ${version3Answer} Free. ${idFields('Job')}`,
		getMany:
			`Lists the account's most recent jobs (at most ${jobsListingSize}), newest ` +
			`first. ${version3Answer} Free. Optional filters: status and workflow.`,
	},
	format: toolDescriptions.format,
	account: {
		getUsage:
			'Returns what the account can still spend: credit balance, the credit cost of unlocking ' +
			'a conversion and a digitising job, free previews left, whether processing is limited, ' +
			'daily and monthly jobs left and when they reset, and the subscription plan. Free; ' +
			'nothing to fill. Call it before Unlock to check the account can pay.',
	},
	file: {
		download:
			'Downloads one signed file link exactly as a job returned it (its outputUrl or ' +
			'previewUrl from Get) as binary data, for a later workflow step; a model cannot read the ' +
			'file, so give the user the link instead. Free. Fill URL with the complete link.',
	},
};

/** Version 1's texts, unchanged so that saved version 1 tools keep the description they were given. */
export const version1ToolDescriptions: Record<string, Record<string, string>> = {
	job: {
		create,
		get:
			`Returns one job: status (queued, processing, completed or failed), failureCode and ` +
			`failureReason, metrics (stitches, colours, size in mm), warnings, whether its machine ` +
			`files are unlocked, and signed file links. Free. ${version1IdFields}`,
		getMany,
		waitForCompletion:
			`Waits until jobs are completed or failed and returns each of them. ` +
			`Free. ${version1IdFields} Several ids may be given, separated by commas.`,
		unlock: `${unlock} ${version1IdFields}`,
		download: `${download} ${version1IdFields}`,
		retry: `${retry} ${version1IdFields}`,
	},
	format: toolDescriptions.format,
	account: toolDescriptions.account,
	file: {
		download:
			'Downloads one signed file link exactly as a job returned it (its downloadUrl or ' +
			'previewUrl) as binary data. Free. Fill URL with the complete link.',
	},
};

function toolDescriptionField(
	resource: string,
	operation: string,
	text: string,
	version?: IDisplayOptions['show'],
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 4 },
		displayOptions: {
			show: { '@tool': [true], resource: [resource], operation: [operation], ...version },
		},
		description:
			'What the AI model is told about this tool: what it does, what it costs and which fields to fill',
	};
}

/** Each version's texts, and the versions they are shown for. */
const textsByVersion: Array<[Record<string, Record<string, string>>, IDisplayOptions['show']]> = [
	[version1ToolDescriptions, version1Only],
	[toolDescriptions, { '@version': [2] }],
	[version3ToolDescriptions, fromVersion3],
];

/**
 * The Tool variant's Description field, one per operation with its text as default (one per run of versions
 * sharing a text). `@tool` shows it only in the Tool variant; because it exists, n8n adds no
 * description field of its own there.
 */
const toolDescriptionFields: INodeProperties[] = Object.entries(version3ToolDescriptions).flatMap(
	([resource, operations]) =>
		Object.keys(operations).flatMap((operation): INodeProperties[] => {
			const texts = textsByVersion.map(([texts, show]) => ({
				text: texts[resource][operation],
				show,
			}));
			if (texts.every(({ text }) => text === texts[0].text))
				return [toolDescriptionField(resource, operation, texts[0].text)];
			return texts.map(({ text, show }) => toolDescriptionField(resource, operation, text, show));
		}),
);

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
	...toolDescriptionFields,
];
