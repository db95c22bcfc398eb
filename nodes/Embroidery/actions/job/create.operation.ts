import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { describeSources, binaryPropertyNames } from '../../helpers/binary';
import type { BatchingMode } from '../../helpers/batching';
import { createJobs } from '../../helpers/createJobs';
import type { CreatedJob, PreparedItem } from '../../helpers/createJobs';
import type { JobRequestFields } from '../../helpers/jobForm';
import { limits } from '../../helpers/limits';
import { allowPrivateNetworksOption, fetchUrlSource } from '../../helpers/urlSource';
import { numberProblem, sourceProblem, tooManySourcesProblem } from '../../helpers/validation';
import type { Workflow } from '../../transport';
import type { ItemResults } from '../types';
import { completionFields, finishCreatedJobs, readCompletionOptions } from './completion';

const properties: INodeProperties[] = [
	{
		displayName: 'Workflow',
		name: 'workflow',
		type: 'options',
		default: 'conversion',
		options: [
			{
				name: 'Conversion',
				value: 'conversion',
				description: 'Convert an embroidery machine file (PES, DST, JEF, …) into another format',
			},
			{
				name: 'Digitising',
				value: 'digitising',
				description: 'Turn artwork (JPG, PNG, SVG, WebP) into stitches and a machine file',
			},
		],
	},
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		default: 'binary',
		options: [
			{
				name: 'Binary Field',
				value: 'binary',
				description: 'Files an earlier node read or downloaded into binary fields of the item',
			},
			{
				name: 'URL',
				value: 'url',
				description: 'A public http(s) link to the file; n8n downloads it without your API key',
			},
		],
		description: 'Where the file to convert or digitise comes from',
	},
	{
		displayName: 'Input Binary Fields',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		displayOptions: { show: { source: ['binary'] } },
		hint: 'Separate several fields with commas; each file becomes its own job',
		description: 'The binary field(s) of each item holding the source files',
	},
	{
		displayName: 'Source URL',
		name: 'sourceUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/designs/logo.png',
		displayOptions: { show: { source: ['url'] } },
		description:
			'Link to the source file: a machine file (PES, DST, JEF, …, up to 50 MB) for conversion, or artwork (JPG, PNG, SVG, WebP, up to 20 MB) for digitising. Fetched without credentials; the name comes from the link or the server.',
	},
	{
		displayName: 'Output Format Name or ID',
		name: 'format',
		type: 'options',
		required: true,
		typeOptions: { loadOptionsMethod: 'getWritableFormats' },
		default: '',
		hint: 'The format to produce; each format shows its compatibility warning, if any',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	},
	{
		displayName: 'Width in Millimetres',
		name: 'widthMm',
		type: 'number',
		required: true,
		default: 100,
		typeOptions: { minValue: limits.widthMm.min, maxValue: limits.widthMm.max, numberPrecision: 1 },
		displayOptions: { show: { workflow: ['digitising'] } },
		description: 'Finished width of the design in millimetres (10-300)',
	},
	{
		displayName: 'Colour Count',
		name: 'colourCount',
		type: 'number',
		required: true,
		default: 6,
		typeOptions: { minValue: limits.colourCount.min, maxValue: limits.colourCount.max },
		displayOptions: { show: { workflow: ['digitising'] } },
		description: 'Maximum number of thread colours (1-24)',
	},
	{
		displayName: 'Thread Palette Name or ID',
		name: 'threadPaletteKey',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getThreadPalettes' },
		default: 'generic',
		displayOptions: { show: { workflow: ['digitising'] } },
		description:
			'Thread maker whose colours the design uses; an expression may give any palette key. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	...completionFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Batching',
				name: 'batching',
				type: 'options',
				default: 'perItem',
				options: [
					{
						name: 'Combine Items',
						value: 'combine',
						description: `Send the files of several items together, up to ${limits.maxSourcesPerRequest} files and ${limits.maxBytesPerRequest / 1024 / 1024} MB per request (accounts on limited free processing may accept only one)`,
					},
					{
						name: 'One Request per Item',
						value: 'perItem',
						description: 'Each item\'s files are sent in their own request',
					},
				],
			},
			{
				displayName: 'Maximum Stitch Count',
				name: 'maximumStitchCount',
				type: 'number',
				default: 50000,
				typeOptions: { minValue: limits.maximumStitchCount.min, maxValue: limits.maximumStitchCount.max },
				description: 'Upper bound of stitches in the result (1-250000)',
			},
			allowPrivateNetworksOption,
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['create'] } }, properties);

function check(context: IExecuteFunctions, itemIndex: number, problem: string | null): void {
	if (problem) throw new NodeOperationError(context.getNode(), problem, { itemIndex });
}

/** Reads and validates one item's request before anything is sent. */
async function prepareItem(context: IExecuteFunctions, itemIndex: number, mode: BatchingMode): Promise<PreparedItem> {
	const workflow = context.getNodeParameter('workflow', itemIndex) as Workflow;
	const format = String(context.getNodeParameter('format', itemIndex, '')).trim();
	if (!format) check(context, itemIndex, `Output Format of item ${itemIndex} is empty; choose a writable format`);
	const options = context.getNodeParameter('options', itemIndex, {}) as { maximumStitchCount?: number };
	const fields: JobRequestFields = { workflow, format };
	if (workflow === 'digitising') {
		fields.widthMm = context.getNodeParameter('widthMm', itemIndex) as number;
		fields.colourCount = context.getNodeParameter('colourCount', itemIndex) as number;
		fields.threadPaletteKey = String(context.getNodeParameter('threadPaletteKey', itemIndex, '')).trim() || undefined;
		check(context, itemIndex, numberProblem('Width in Millimetres', fields.widthMm, limits.widthMm, itemIndex, false));
		check(context, itemIndex, numberProblem('Colour Count', fields.colourCount, limits.colourCount, itemIndex, true));
	}
	if (options.maximumStitchCount !== undefined) {
		fields.maximumStitchCount = options.maximumStitchCount;
		check(
			context,
			itemIndex,
			numberProblem('Maximum Stitch Count', options.maximumStitchCount, limits.maximumStitchCount, itemIndex, true),
		);
	}
	if (context.getNodeParameter('source', itemIndex, 'binary') === 'url') {
		// Size and type are checked while the file is fetched, in words that name the URL.
		const source = await fetchUrlSource(context, itemIndex, context.getNodeParameter('sourceUrl', itemIndex, ''), workflow);
		return { itemIndex, fields, sources: [source] };
	}
	const names = binaryPropertyNames(context.getNodeParameter('binaryPropertyName', itemIndex));
	const sources = await describeSources(context, itemIndex, names);
	if (mode === 'perItem') check(context, itemIndex, tooManySourcesProblem(sources.length, itemIndex));
	for (const source of sources) check(context, itemIndex, sourceProblem(source, workflow));
	return { itemIndex, fields, sources };
}

/** A job made from a URL names its link instead of a binary field. */
function describeUrlSource(job: CreatedJob, sourceUrls: Map<number, string>): CreatedJob {
	const sourceUrl = sourceUrls.get(job.itemIndex);
	if (sourceUrl === undefined) return job;
	const json: IDataObject = { ...job.json, sourceUrl };
	delete json.sourceBinaryField;
	return { ...job, json };
}

export async function executeAll(
	this: IExecuteFunctions,
	itemIndices: number[],
	results: ItemResults,
): Promise<void> {
	const mode = (this.getNodeParameter('options.batching', 0, 'perItem') as BatchingMode) ?? 'perItem';
	const completion = readCompletionOptions(this);
	const prepared: PreparedItem[] = [];
	for (const itemIndex of itemIndices) {
		try {
			prepared.push(await prepareItem(this, itemIndex, mode));
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
	const sourceUrls = new Map<number, string>();
	for (const item of prepared) {
		for (const source of item.sources) if ('sourceUrl' in source) sourceUrls.set(item.itemIndex, String(source.sourceUrl));
	}
	const created = (await createJobs(this, prepared, mode, results)).map((job) => describeUrlSource(job, sourceUrls));
	if (!completion.waitForCompletion) {
		for (const job of created) results.add(job.itemIndex, { json: job.json });
		return;
	}
	await finishCreatedJobs(this, created, completion, results);
}
