import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** Fields a person reads, kept as they are. */
const keptFields = [
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
	'detailError',
	'outputsLocked',
	'outputsLockedNote',
];

function record(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : undefined;
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

/**
 * A job item for people: id, workflow, status, formats, file names and sizes (in bytes), metrics,
 * warnings and the failure, as flat fields. Signed links and raw objects (source, outputs,
 * artifacts, events, unlock state) stay out; Simplify off returns them all.
 */
export function simplifyJob(job: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const key of keptFields) if (job[key] !== undefined) simple[key] = job[key];
	const source = record(job.source);
	const output = firstOutput(job);
	simple.sourceFile = text(job.sourceFile) ?? text(source?.name) ?? text(job.title) ?? null;
	simple.sourceFileSize = size(source?.size);
	simple.outputFile = text(output?.name) ?? null;
	simple.outputFileSize = size(output?.size);
	if (Array.isArray(job.outputs) && job.outputs.length > 1) {
		simple.outputFiles = job.outputs.map((file) => text(record(file)?.name) ?? null);
	}
	return simple;
}

/** The Simplify switch of the Embroidery node (Get, Get Many) and the trigger, shown from the versions that have it. */
export function simplifyProperty(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return a simplified version of the response instead of the raw data: ID, workflow, status, formats, file names and sizes, metrics, warnings and failure, without signed links or raw objects',
		displayOptions,
	};
}
