import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Job, JobListItem } from '../transport';
import { fileLinksOf } from './fileLinks';

/** Fields node version 2 and trigger 1.1 keep, as they are; saved workflows of those versions rely on them. */
const version2Fields = [
	'id',
	'workflow',
	'status',
	'formats',
	'widthMm',
	'colourCount',
	'attemptCount',
	'downloadsUnlocked',
	'metrics',
	'warnings',
	'failureCode',
	'failureReason',
	'createdAt',
	'completedAt',
	// What the nodes add to a job's item: the answer's message, downloaded files, lock notes, what failed.
	'message',
	'sourceBinaryField',
	'files',
	'fileErrors',
	'fieldErrors',
	'detailError',
	'outputsLocked',
	'outputsLockedNote',
];

/**
 * What Simplify returns from node version 3 and trigger 1.2, most used first: what a shop flow branches on
 * (status, lock, failure, attempts), and the two links it hands on. Ten fields, all flat, always present.
 */
export const simplifiedJobFields = [
	'id',
	'workflow',
	'status',
	'downloadsUnlocked',
	'outputUrl',
	'previewUrl',
	'warnings',
	'failureCode',
	'failureReason',
	'attemptCount',
] as const;

/** Reports of what went wrong in this run, which Simplify never hides (they say why a field is missing). */
export const runReportFields = [
	'detailError',
	'fileErrors',
	'fieldErrors',
	'warningsUnavailable',
] as const;

/** Every flat field a person may pick with the tool's Selected Fields, in the order they come out. */
export const flatJobFields = [
	...simplifiedJobFields,
	'formats',
	'widthMm',
	'colourCount',
	'metrics',
	'sourceFile',
	'sourceFileSize',
	'outputFile',
	'outputFileSize',
	'createdAt',
	'completedAt',
] as const;

export type FlatJobField = (typeof flatJobFields)[number];

function record(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function size(value: unknown): number | null {
	return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The first output file: a listing entry's `output`, or a detailed job's `outputs[0]`. */
function firstOutput(job: IDataObject): IDataObject | undefined {
	if (Array.isArray(job.outputs)) return record(job.outputs[0]);
	return record(job.output);
}

/** The job's signed links, read where the file downloads read them (a detailed job or a listing entry). */
function firstLink(job: IDataObject, kind: 'outputs' | 'preview'): string | null {
	const detailed = Array.isArray(job.outputs) || Array.isArray(job.artifacts);
	const sighting = detailed
		? { detail: job as unknown as Job }
		: { listed: job as unknown as JobListItem };
	return fileLinksOf(sighting, kind)[0]?.url ?? null;
}

/** A job item as flat fields: the ten Simplify keeps first, then names, sizes, metrics and dates. */
export function flattenJob(job: IDataObject): Record<FlatJobField, unknown> {
	const source = record(job.source);
	const output = firstOutput(job);
	return {
		id: job.id,
		workflow: job.workflow ?? job.kind ?? null,
		status: job.status ?? null,
		downloadsUnlocked: job.downloadsUnlocked ?? null,
		outputUrl: firstLink(job, 'outputs'),
		previewUrl: firstLink(job, 'preview'),
		warnings: Array.isArray(job.warnings) ? job.warnings : null,
		failureCode: job.failureCode ?? null,
		failureReason: job.failureReason ?? null,
		attemptCount: job.attemptCount ?? null,
		formats: job.formats ?? null,
		widthMm: job.widthMm ?? null,
		colourCount: job.colourCount ?? null,
		metrics: job.metrics ?? null,
		sourceFile: text(job.sourceFile) ?? text(source?.name) ?? text(job.title) ?? null,
		sourceFileSize: size(source?.size),
		outputFile: text(output?.name) ?? null,
		outputFileSize: size(output?.size),
		createdAt: job.createdAt ?? null,
		completedAt: job.completedAt ?? null,
	};
}

function withRunReports(job: IDataObject, simple: IDataObject): IDataObject {
	for (const key of runReportFields) if (job[key] !== undefined) simple[key] = job[key];
	return simple;
}

/** Simplify from node version 3 and trigger 1.2: the ten fields, plus what went wrong in this run, if anything. */
export function simplifyJob(job: IDataObject): IDataObject {
	const flat = flattenJob(job);
	const simple: IDataObject = {};
	for (const key of simplifiedJobFields) simple[key] = flat[key] as IDataObject[string];
	return withRunReports(job, simple);
}

/** The tool's Selected Fields: the ID always, then the fields picked, in their usual order. */
export function selectJobFields(job: IDataObject, picked: string[]): IDataObject {
	const flat = flattenJob(job);
	const selected: IDataObject = { id: flat.id as string };
	for (const key of flatJobFields)
		if (picked.includes(key)) selected[key] = flat[key] as IDataObject[string];
	return withRunReports(job, selected);
}

/**
 * Simplify as node version 2 and trigger 1.1 shipped it: id, workflow, status, formats, file names and sizes,
 * metrics, warnings and the failure, without signed links or raw objects. Unchanged, so their workflows keep working.
 */
export function simplifyJobAsVersion2(job: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const key of version2Fields) if (job[key] !== undefined) simple[key] = job[key];
	const flat = flattenJob(job);
	simple.sourceFile = flat.sourceFile as string | null;
	simple.sourceFileSize = flat.sourceFileSize as number | null;
	simple.outputFile = flat.outputFile as string | null;
	simple.outputFileSize = flat.outputFileSize as number | null;
	if (Array.isArray(job.outputs) && job.outputs.length > 1) {
		simple.outputFiles = job.outputs.map((file) => text(record(file)?.name) ?? null);
	}
	return simple;
}

/** What Simplify keeps of the account's usage, most used first: what the account can pay, and what is left. */
const usageFieldsKept = [
	'creditBalance',
	'conversionCreditCost',
	'digitisingCreditCost',
	'previewRemaining',
	'limited',
	'dailyRemaining',
	'monthlyRemaining',
	'dailyResetsAt',
	'monthlyResetsAt',
	'subscriptionPlanSlug',
];

const usageFieldNames: Record<string, string> = {
	creditBalance: 'Credit Balance',
	conversionCreditCost: 'Conversion Credit Cost',
	digitisingCreditCost: 'Digitising Credit Cost',
	previewRemaining: 'Free Previews Left',
	limited: 'Limited Free Processing',
	dailyLimit: 'Daily Job Limit',
	dailyUsed: 'Daily Jobs Used',
	dailyRemaining: 'Daily Jobs Left',
	dailyResetsAt: 'Daily Reset At',
	monthlyLimit: 'Monthly Job Limit',
	monthlyUsed: 'Monthly Jobs Used',
	monthlyRemaining: 'Monthly Jobs Left',
	monthlyResetsAt: 'Monthly Reset At',
	subscriptionPlanSlug: 'Subscription Plan',
	subscriptionRenewsAt: 'Subscription Renews At',
};

function pick(answer: IDataObject, fields: string[]): IDataObject {
	return Object.fromEntries(fields.map((field) => [field, answer[field] ?? null]));
}

export type OutputMode = 'simplified' | 'raw' | 'selected';

/** What the tool's Output offers for one kind of answer. */
export interface OutputChoices {
	/** The Simplified option's description: the fields it keeps. */
	simplified: string;
	/** Which fields Selected Fields offers (an ID, if any, comes always and is no choice). */
	fields: Array<{ name: string; value: string }>;
	/** How Selected Fields treats the ID, in the option's description. */
	selected: string;
}

/** One kind of answer's Simplify and Output (from node version 3): what they make of it, and what their fields say. */
export interface Shaping {
	simplify(raw: IDataObject): IDataObject;
	select(raw: IDataObject, picked: string[]): IDataObject;
	/** Which fields Simplify keeps, in its description. */
	kept: string;
	choices: OutputChoices;
}

/** A kind of answer that node version 2 already simplified, in its own way, which its workflows keep. */
export interface ShapingAsVersion2 extends Shaping {
	simplifyAsVersion2(raw: IDataObject): IDataObject;
}

export const jobFieldsKept =
	'ID, workflow, status, whether downloads are unlocked, the links to the machine file and ' +
	'the preview, warnings, failure code and reason, and attempt count';

const jobFieldNames: Record<FlatJobField, string> = {
	id: 'ID',
	workflow: 'Workflow',
	status: 'Status',
	downloadsUnlocked: 'Downloads Unlocked',
	outputUrl: 'Machine File Link',
	previewUrl: 'Preview Link',
	warnings: 'Warnings',
	failureCode: 'Failure Code',
	failureReason: 'Failure Reason',
	attemptCount: 'Attempt Count',
	formats: 'Formats',
	widthMm: 'Width in Millimetres',
	colourCount: 'Colour Count',
	metrics: 'Metrics',
	sourceFile: 'Source File Name',
	sourceFileSize: 'Source File Size',
	outputFile: 'Machine File Name',
	outputFileSize: 'Machine File Size',
	createdAt: 'Created At',
	completedAt: 'Completed At',
};

/** A job, as the action node's job operations and the trigger put it out. */
export const jobShaping: ShapingAsVersion2 = {
	simplify: simplifyJob,
	select: selectJobFields,
	simplifyAsVersion2: simplifyJobAsVersion2,
	kept: jobFieldsKept,
	choices: {
		simplified: `Ten flat fields: ${jobFieldsKept}`,
		fields: flatJobFields
			.filter((field) => field !== 'id')
			.map((field) => ({ name: jobFieldNames[field], value: field })),
		selected: 'Only the fields chosen below, always with the job ID',
	},
};

const usageKept =
	'credit balance, the credit cost of unlocking a conversion and a digitising job, free ' +
	'previews left, whether processing is limited, daily and monthly jobs left and when they ' +
	'reset, and the subscription plan';

/** The account's usage: the answer has 15 fields, so Simplify (and Output's Simplified) keeps ten. */
export const usageShaping: Shaping = {
	simplify: (usage) => pick(usage, usageFieldsKept),
	select: (usage, picked) =>
		pick(
			usage,
			Object.keys(usageFieldNames).filter((field) => picked.includes(field)),
		),
	kept: usageKept,
	choices: {
		simplified: `Ten fields: ${usageKept}`,
		fields: Object.entries(usageFieldNames).map(([value, name]) => ({ name, value })),
		selected: 'Only the fields chosen below',
	},
};

/** Whether n8n runs this node as its AI tool variant (n8n names that type after the node, with "Tool" at the end). */
function isToolVariant(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * One item shaped as its node version asks: before version 3, Simplify as version 2 shipped it; from version 3,
 * Simplify in a workflow and Output (Simplified, Raw, Selected Fields) in the AI tool variant.
 */
export function shapeItem(
	context: IExecuteFunctions,
	itemIndex: number,
	raw: IDataObject,
	shaping: Shaping | ShapingAsVersion2,
): IDataObject {
	if (context.getNode().typeVersion < 3) {
		if (!('simplifyAsVersion2' in shaping)) return raw;
		return (context.getNodeParameter('simplify', itemIndex, true) as boolean)
			? shaping.simplifyAsVersion2(raw)
			: raw;
	}
	if (isToolVariant(context)) {
		const mode = context.getNodeParameter('output', itemIndex, 'simplified') as OutputMode;
		if (mode === 'raw') return raw;
		if (mode === 'selected')
			return shaping.select(raw, context.getNodeParameter('fields', itemIndex, []) as string[]);
		return shaping.simplify(raw);
	}
	return (context.getNodeParameter('simplify', itemIndex, true) as boolean)
		? shaping.simplify(raw)
		: raw;
}
