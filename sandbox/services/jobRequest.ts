import { workflows, type DigitisingOptions, type Workflow } from '../domain/jobs';
import { listFormats, readableLabels } from '../engine';
import { FieldErrors } from './errors';
import { readDigitisingOptions } from './jobOptions';
import type { Inspection, InspectionRequest } from './workers/inspection';

/** Per-file upload ceilings of the spec, in bytes. */
export const sourceSizeLimits: Record<Workflow, number> = {
	conversion: 50 * 1024 * 1024,
	digitising: 20 * 1024 * 1024,
};

export const maxFilesPerRequest = 10;

/** One uploaded file, already streamed to a temporary path by the HTTP layer. */
export interface IncomingSource {
	field: 'file' | 'files';
	fileName: string;
	tempPath: string;
	size: number;
	/** Set when streaming stopped at this many bytes because the file was too large. */
	truncatedAt?: number;
}

export interface JobRequest {
	fields: Record<string, string>;
	sources: IncomingSource[];
}

/** A source that passed the checks, with what its bytes turned out to be. */
export interface CheckedSource extends IncomingSource {
	inspection: Inspection & { kind: string };
}

/** A job request every rule accepted: what the persistence step stores, one job per source. */
export interface CheckedJobRequest {
	workflow: Workflow;
	format: string;
	options: DigitisingOptions;
	sources: CheckedSource[];
	/** `file` or `files`: where allowance errors are reported. */
	filesField: IncomingSource['field'];
}

/** Looks at one stored source (checksum and content detection); the sandbox does it in a worker thread. */
export type Inspect = (request: InspectionRequest) => Promise<Inspection>;

/**
 * Checks a whole job request against the spec's rules, collecting every problem into one 422:
 * workflow, file fields and counts, per-file size, content (through `inspect`), output format and
 * the digitising options. Touches no storage; the allowance and the inserts come after.
 */
export async function checkJobRequest(
	request: JobRequest,
	inspect: Inspect,
): Promise<CheckedJobRequest> {
	const { fields, sources } = request;
	const errors = new FieldErrors();
	const { add } = errors;

	const workflow = fields.workflow as Workflow;
	if (fields.workflow === undefined || fields.workflow === '')
		add('workflow', 'The workflow field is required.');
	else if (!workflows.includes(workflow))
		add('workflow', 'The workflow must be "conversion" or "digitising".');

	checkFileFields(sources, add);

	const checked: CheckedSource[] = [];
	if (workflows.includes(workflow) && sources.length <= maxFilesPerRequest) {
		for (const source of sources) {
			const inspection = await checkSource(workflow, source, inspect, (message) =>
				add(source.field, message),
			);
			if (inspection) checked.push({ ...source, inspection });
		}
	}

	const format = (fields.format ?? '').trim().toLowerCase();
	checkFormat(
		fields.format,
		format,
		checked.map((source) => source.inspection.kind),
		add,
	);
	const options = readDigitisingOptions(fields, workflow === 'digitising', add);

	errors.throwIfAny();
	return { workflow, format, options, sources: checked, filesField: sources[0].field };
}

function checkFileFields(
	sources: IncomingSource[],
	add: (field: string, message: string) => void,
): void {
	const fieldsUsed = new Set(sources.map((source) => source.field));
	if (sources.length === 0)
		add('file', 'Send a source file as "file", or 1 to 10 files as "files[]".');
	if (fieldsUsed.size > 1) add('file', 'Send either "file" or "files[]", not both.');
	if (sources.filter((source) => source.field === 'file').length > 1) {
		add('file', 'The "file" field takes one file; send several as "files[]".');
	}
	if (sources.length > maxFilesPerRequest) {
		add('files', `At most ${maxFilesPerRequest} files per request; ${sources.length} were sent.`);
	}
}

/** Size checks first; then checksum and content detection through `inspect`. */
async function checkSource(
	workflow: Workflow,
	source: IncomingSource,
	inspect: Inspect,
	fail: (message: string) => void,
): Promise<CheckedSource['inspection'] | null> {
	const limit = sourceSizeLimits[workflow];
	if (source.truncatedAt !== undefined || source.size > limit) {
		fail(
			`${source.fileName} is larger than ${limit / 1024 / 1024} MB, the ${workflow} limit per file.`,
		);
		return null;
	}
	if (source.size === 0) {
		fail(`${source.fileName} is empty.`);
		return null;
	}
	let inspection: Inspection;
	try {
		inspection = await inspect({ path: source.tempPath, workflow, fileName: source.fileName });
	} catch (error) {
		fail(`${source.fileName} could not be inspected (${(error as Error).message}).`);
		return null;
	}
	const { kind, checksum } = inspection;
	if (kind) return { kind, checksum };
	fail(
		workflow === 'conversion'
			? `${source.fileName} is not a readable embroidery machine file: ` +
					`${inspection.refusal ?? 'its content fits none of the formats this service reads'}. ` +
					`This service reads ${readableLabels()}.`
			: `${source.fileName} is not JPG, JPEG, PNG, SVG or WebP artwork.`,
	);
	return null;
}

function checkFormat(
	sent: string | undefined,
	format: string,
	detected: string[],
	add: (field: string, message: string) => void,
): void {
	const info = listFormats().find((candidate) => candidate.format === format);
	const writable = listFormats()
		.filter((candidate) => candidate.writable)
		.map((candidate) => candidate.format);
	if (!format) add('format', 'The format field is required.');
	else if (!info)
		add(
			'format',
			`The format "${sent}" is not supported. Writable formats: ${writable.join(', ')}.`,
		);
	else if (!info.writable)
		add(
			'format',
			`${info.label} can be read but not written. Writable formats: ${writable.join(', ')}.`,
		);
	else if (detected.includes(format)) {
		add(
			'format',
			`The output format must differ from the source format: the source is already ${info.label}.`,
		);
	}
}
