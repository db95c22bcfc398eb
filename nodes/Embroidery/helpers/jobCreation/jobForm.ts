import type { Workflow } from '../../transport';

/** The non-file fields of one POST /jobs request; items combine into a request only when these match. */
export interface JobRequestFields {
	workflow: Workflow;
	format: string;
	widthMm?: number;
	colourCount?: number;
	threadPaletteKey?: string;
	maximumStitchCount?: number;
}

export function requestFieldsKey(fields: JobRequestFields): string {
	return JSON.stringify([
		fields.workflow,
		fields.format,
		fields.widthMm ?? null,
		fields.colourCount ?? null,
		fields.threadPaletteKey ?? null,
		fields.maximumStitchCount ?? null,
	]);
}

/** The multipart body: one `file`, or `files[]` for several sources, plus the spec's field names. */
export function buildJobForm(fields: JobRequestFields, files: File[]): FormData {
	const form = new FormData();
	form.append('workflow', fields.workflow);
	form.append('format', fields.format);
	if (fields.workflow === 'digitising') {
		if (fields.widthMm !== undefined) form.append('width_mm', String(fields.widthMm));
		if (fields.colourCount !== undefined) form.append('colour_count', String(fields.colourCount));
		if (fields.threadPaletteKey) form.append('thread_palette_key', fields.threadPaletteKey);
	}
	if (fields.maximumStitchCount !== undefined) {
		form.append('maximum_stitch_count', String(fields.maximumStitchCount));
	}
	const fieldName = files.length === 1 ? 'file' : 'files[]';
	// Appended without a file name: FormData would copy the file into a new one, losing a streamed file's bytes.
	for (const file of files) form.append(fieldName, file);
	return form;
}
