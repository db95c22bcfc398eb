import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jobShaping } from '../../helpers/simplify';
import { sameForEveryVersion } from '../types';
import { describeSources, binaryPropertyNames } from '../../helpers/binary';
import type { BatchingMode } from '../../helpers/jobCreation/batching';
import { createJobs } from '../../helpers/jobCreation/createJobs';
import type { PreparedItem } from '../../helpers/jobCreation/createJobs';
import type { CreatedJob } from '../../helpers/knownJob';
import { earlierCreationsOf, sourceKey } from '../../helpers/earlierTries';
import type { JobRequestFields } from '../../helpers/jobCreation/jobForm';
import { jobsError } from '../../helpers/jobErrors';
import { artworkTypesOr, shownArtworkTypes } from '../../transport/artworkTypes';
import { formatMegabytes, limits } from '../../transport/serviceLimits';
import { fetchUrlSource } from '../../helpers/jobCreation/urlSource';
import { allowPrivateNetworksOption, completionFields } from '../common.descriptions';
import {
	numberProblem,
	sourceProblem,
	tooManySourcesProblem,
} from '../../helpers/jobCreation/checks';
import { earlierTryAdvice, parameterAdvice } from '../../transport';
import type { Workflow } from '../../transport';
import type { ItemResults, OperationOption, OutputShaping } from '../types';
import { deliverJobsWhenDone, runCompletionOptions } from '../../helpers/deliverWhenDone';

export const option: OperationOption = {
	name: 'Create',
	description:
		'Upload files to convert or digitise, one job per file; each job counts against the ' +
		"account's processing allowance",
	action: 'Create jobs',
};

export const description: INodeProperties[] = [
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
				description: `Turn artwork (${shownArtworkTypes.join(', ')}) into stitches and a machine file`,
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
			'Link to the source file: a machine file (PES, DST, JEF, …, up to ' +
			`${formatMegabytes(limits.conversionMaxBytes)}) for conversion, or artwork ` +
			`(${shownArtworkTypes.join(', ')}, up to ${formatMegabytes(limits.artworkMaxBytes)}) for digitising. Fetched ` +
			'without credentials; the name comes from the link or the server.',
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
		description: `Finished width of the design in millimetres (${limits.widthMm.min}-${limits.widthMm.max})`,
	},
	{
		displayName: 'Colour Count',
		name: 'colourCount',
		type: 'number',
		required: true,
		default: 6,
		typeOptions: { minValue: limits.colourCount.min, maxValue: limits.colourCount.max },
		displayOptions: { show: { workflow: ['digitising'] } },
		description: `Maximum number of thread colours (${limits.colourCount.min}-${limits.colourCount.max})`,
	},
	{
		displayName: 'Thread Palette Name or ID',
		name: 'threadPaletteKey',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getThreadPalettes' },
		default: 'generic',
		displayOptions: { show: { workflow: ['digitising'] } },
		description:
			// The line break is a template literal's line continuation: the text stays one line.
			`Thread maker whose colours the design uses; an expression may give any palette key. \
Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	},
	...completionFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			allowPrivateNetworksOption,
			{
				displayName: 'Batching',
				name: 'batching',
				type: 'options',
				default: 'perItem',
				options: [
					{
						name: 'Combine Items',
						value: 'combine',
						description:
							`Send the files of several items together, up to ${limits.maxSourcesPerRequest} ` +
							`files and ${formatMegabytes(limits.maxBytesPerRequest)} per request (accounts on ` +
							`limited free processing may accept only one)`,
					},
					{
						name: 'One Request per Item',
						value: 'perItem',
						description: "Each item's files are sent in their own request",
					},
				],
			},
			{
				displayName: 'Maximum Stitch Count',
				name: 'maximumStitchCount',
				type: 'number',
				default: 50000,
				typeOptions: {
					minValue: limits.maximumStitchCount.min,
					maxValue: limits.maximumStitchCount.max,
				},
				description: 'Upper bound of stitches in the result (1-250000)',
			},
		],
	},
];

/** Usage explains a refused batch; waiting lists and gets jobs, unlocks them and downloads their files. */
export const routesCalled = [
	'createJobs',
	'getUsage',
	'listJobs',
	'getJob',
	'unlockJob',
	'signedFile',
] as const;

export const toolDescription = sameForEveryVersion(
	`Starts an embroidery job from one file and returns the job's id and workflow (keep both). ` +
		`Workflow "conversion" turns an embroidery machine file (PES, DST, JEF, EXP, VP3, ...) into ` +
		`the Output Format; "digitising" turns artwork (${artworkTypesOr()}) into stitches and also ` +
		`needs Width in millimetres (${limits.widthMm.min}-${limits.widthMm.max}) and Colour Count ` +
		`(${limits.colourCount.min}-${limits.colourCount.max}). Output Format is a writable ` +
		`format key such as "dst" or "pes". Source URL is a public http(s) link to the file (at most ` +
		`${formatMegabytes(limits.conversionMaxBytes)} for conversion, ${formatMegabytes(limits.artworkMaxBytes)} ` +
		`for artwork). Cost: each job counts against the account's daily ` +
		`and monthly job allowance (a free account also uses a free preview); no credits are spent ` +
		`until Unlock. With Wait for Completion the answer is the finished job (status, metrics, ` +
		`warnings); its machine file stays locked until Unlock.`,
);

/** Waiting, it puts out whole jobs, shaped like Get's from version 3. */
export const output: OutputShaping = {
	shaping: jobShaping,
	fromVersion: 3,
	when: { waitForCompletion: [true] },
};

function check(
	context: IExecuteFunctions,
	itemIndex: number,
	problem: string | null,
	description = 'Change that parameter, or the expression that maps it, and run the node again.',
): void {
	if (problem) throw new NodeOperationError(context.getNode(), problem, { itemIndex, description });
}

/** Reads and validates one item's request before anything is sent. */
async function prepareItem(
	context: IExecuteFunctions,
	itemIndex: number,
	mode: BatchingMode,
	identity: string,
): Promise<PreparedItem> {
	const workflow = context.getNodeParameter('workflow', itemIndex) as Workflow;
	const format = String(context.getNodeParameter('format', itemIndex, '')).trim();
	if (!format)
		check(
			context,
			itemIndex,
			`'Output Format' is empty; choose a writable format`,
			parameterAdvice.noOutputFormat,
		);
	const options = context.getNodeParameter('options', itemIndex, {}) as {
		maximumStitchCount?: number;
	};
	const fields: JobRequestFields = { workflow, format };
	if (workflow === 'digitising') {
		fields.widthMm = context.getNodeParameter('widthMm', itemIndex) as number;
		fields.colourCount = context.getNodeParameter('colourCount', itemIndex) as number;
		fields.threadPaletteKey =
			String(context.getNodeParameter('threadPaletteKey', itemIndex, '')).trim() || undefined;
		check(
			context,
			itemIndex,
			numberProblem('Width in Millimetres', fields.widthMm, limits.widthMm, false),
		);
		check(
			context,
			itemIndex,
			numberProblem('Colour Count', fields.colourCount, limits.colourCount, true),
		);
	}
	if (options.maximumStitchCount !== undefined) {
		fields.maximumStitchCount = options.maximumStitchCount;
		check(
			context,
			itemIndex,
			numberProblem(
				'Maximum Stitch Count',
				options.maximumStitchCount,
				limits.maximumStitchCount,
				true,
			),
		);
	}
	if (context.getNodeParameter('source', itemIndex, 'binary') === 'url') {
		// Size and type are checked while the file is fetched, in words that name the URL.
		const source = await fetchUrlSource(
			context,
			itemIndex,
			context.getNodeParameter('sourceUrl', itemIndex, ''),
			workflow,
		);
		return { itemIndex, fields, sources: [source], identity, sourceCount: 1 };
	}
	const names = binaryPropertyNames(context.getNodeParameter('binaryPropertyName', itemIndex));
	const sources = await describeSources(context, itemIndex, names);
	if (mode === 'perItem')
		check(context, itemIndex, tooManySourcesProblem(sources.length, itemIndex));
	for (const source of sources) check(context, itemIndex, sourceProblem(source, workflow));
	return { itemIndex, fields, sources, identity, sourceCount: sources.length };
}

/** The item's request as a key: its parameters and the input files they may name (nothing fetched or read). */
function itemIdentity(context: IExecuteFunctions, itemIndex: number): string {
	const parameters = [
		'workflow',
		'format',
		'widthMm',
		'colourCount',
		'threadPaletteKey',
		'options',
		'source',
		'sourceUrl',
		'binaryPropertyName',
	];
	const files = Object.entries(context.getInputData()[itemIndex]?.binary ?? {}).map(
		([field, file]) => [
			field,
			file.id ?? null,
			file.fileName ?? null,
			file.fileSize ?? null,
			file.mimeType,
		],
	);
	return JSON.stringify([
		parameters.map((name) => context.getNodeParameter(name, itemIndex, null) as unknown),
		files,
	]);
}

/** An earlier try sent the item's file and its answer was lost: sending it again could make and charge a second job. */
function notSentAgain(
	context: IExecuteFunctions,
	itemIndex: number,
	reason: string,
	jobs: CreatedJob[],
): NodeOperationError {
	const made =
		jobs.length === 0
			? ''
			: ` Jobs already made for this item: ${jobs.map((job) => `${job.id} (${job.workflow})`).join(', ')}.`;
	const error = new NodeOperationError(
		context.getNode(),
		`An earlier try of this node sent the file of item ${itemIndex} and got no usable answer ` +
			`(${reason}); it was not sent again`,
		{
			itemIndex,
			description: earlierTryAdvice.create(made),
		},
	);
	return jobsError(error, jobs);
}

export async function executeAll(
	this: IExecuteFunctions,
	itemIndices: number[],
	results: ItemResults,
): Promise<void> {
	const mode =
		(this.getNodeParameter('options.batching', 0, 'perItem') as BatchingMode) ?? 'perItem';
	const completion = runCompletionOptions(this, 'create');
	// n8n's Retry On Fail runs this again: what an earlier try made is carried on with, never made twice.
	const earlier = earlierCreationsOf(this);
	const madeEarlier: CreatedJob[] = [];
	const prepared: PreparedItem[] = [];
	for (const itemIndex of itemIndices) {
		try {
			const identity = itemIdentity(this, itemIndex);
			const before = earlier.of(itemIndex, identity);
			const sentBefore = [...(before?.sources.values() ?? [])];
			const jobs = sentBefore.flatMap((sent) => (sent.outcome === 'created' ? [sent.job] : []));
			for (const job of jobs) results.jobCreated(itemIndex, job);
			const lost = sentBefore.find((sent) => sent.outcome === 'unknown');
			if (lost?.outcome === 'unknown') throw notSentAgain(this, itemIndex, lost.reason, jobs);
			madeEarlier.push(...jobs);
			if (before?.complete) continue;
			const item = await prepareItem(this, itemIndex, mode, identity);
			const sources = item.sources.filter((source) => !before?.sources.has(sourceKey(source)));
			if (sources.length > 0) prepared.push({ ...item, sources });
		} catch (error) {
			results.fail(itemIndex, error);
		}
	}
	const created = [...madeEarlier, ...(await createJobs(this, prepared, mode, results, earlier))];
	if (!completion.waitForCompletion) {
		for (const job of created) results.add(job.itemIndex, { json: job.json });
		return;
	}
	await deliverJobsWhenDone(this, created, completion, results);
}
