import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as file from './file/File.resource';
import * as format from './format/Format.resource';
import * as job from './job/Job.resource';

export const credentials: INodeCredentialDescription[] = [{ name: 'embroideryApi', required: true }];

const idFields = 'Fill Job ID (the 26-character id) and Workflow ("conversion" or "digitising") from the job as Create or Get Many returned it.';

/**
 * What the Embroidery Tool tells a model (an AI agent, an MCP client) about each operation: what it
 * does, what it costs and which fields to fill. Read as the tool's description by n8n 1.x and 2.x alike.
 */
export const toolDescriptions: Record<string, Record<string, string>> = {
	job: {
		create: `Starts an embroidery job from one file and returns the job's id and workflow (keep both). Workflow "conversion" turns an embroidery machine file (PES, DST, JEF, EXP, VP3, ...) into the Output Format; "digitising" turns artwork (JPG, PNG, SVG or WebP) into stitches and also needs Width in millimetres (10-300) and Colour Count (1-24). Output Format is a writable format key such as "dst" or "pes". Source URL is a public http(s) link to the file (at most 50 MB for conversion, 20 MB for artwork). Cost: each job counts against the account's daily and monthly job allowance (a free account also uses a free preview); no credits are spent until Unlock. With Wait for Completion the answer is the finished job (status, metrics, warnings); its machine file stays locked until Unlock.`,
		get: `Returns one job: status (queued, processing, completed or failed), failureCode and failureReason, metrics (stitches, colours, size in mm), warnings, whether its machine files are unlocked, and signed file links. Free. ${idFields}`,
		getMany: 'Lists the account\'s most recent jobs (at most 50), newest first, with id, workflow, status and metrics. Free. Optional filters: status and workflow.',
		waitForCompletion: `Waits until jobs are completed or failed and returns each of them. Free. ${idFields} Several ids may be given, separated by commas.`,
		unlock: `Unlocks a completed job's machine files so they can be downloaded. COSTS MONEY: spends one subscription entitlement or, without one, processing credits (Get Usage tells conversionCreditCost and digitisingCreditCost); it fails with 422 when the account cannot pay and never buys credits. Call it only when the user wants the machine file. ${idFields}`,
		download: `Downloads a job's files as binary data: the stitch preview (watermarked while locked), the source, or the machine files (only after Unlock). Free. ${idFields}`,
		retry: `Queues a failed job again, for example after engine_error, while its source is kept (24 hours). Free. ${idFields}`,
	},
	format: {
		getMany: 'Lists the embroidery machine formats the service can read and write, with compatibility warnings, and the artwork file types digitising accepts. Free; nothing to fill.',
	},
	account: {
		getUsage: 'Returns what the account can still spend: credit balance, unlock entitlements, free previews, daily and monthly job allowances, and the credit cost of unlocking a conversion and a digitising job. Free; nothing to fill. Call it before Unlock to check the account can pay.',
	},
	file: {
		download: 'Downloads one signed file link exactly as a job returned it (its downloadUrl or previewUrl) as binary data. Free. Fill URL with the complete link.',
	},
};

/**
 * The Tool variant's Description field, one per operation with its text as default. `@tool` shows it only
 * in the Tool variant; because it exists, n8n adds no description field of its own there.
 */
const toolDescriptionFields: INodeProperties[] = Object.entries(toolDescriptions).flatMap(([resource, operations]) =>
	Object.entries(operations).map(
		([operation, text]): INodeProperties => ({
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: text,
			typeOptions: { rows: 4 },
			displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
			description: 'What the AI model is told about this tool: what it does, what it costs and which fields to fill',
		}),
	),
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
