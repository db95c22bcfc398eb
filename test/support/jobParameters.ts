/**
 * The Embroidery node's parameters for the jobs tests send most: a conversion created from the
 * item's `data` binary, or from a Source URL. Unit, load and end-to-end suites share it so a renamed
 * parameter changes here.
 */
import type { INodeParameters } from 'n8n-workflow';

/** Job > Create, conversion of the `data` binary to PES; `extra` adds or overrides parameters. */
export function createConversion(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'job',
		operation: 'create',
		workflow: 'conversion',
		binaryPropertyName: 'data',
		format: 'pes',
		...extra,
	};
}

/** Job > Create with Wait for Completion (and, unless `extra` says otherwise, the preview downloaded). */
export function createAndWait(extra: INodeParameters = {}): INodeParameters {
	return createConversion({
		waitForCompletion: true,
		timeout: 120,
		downloadResults: ['preview'],
		...extra,
	});
}

/** Job > Create, conversion to DST of the file at `sourceUrl` (Options in `options`). */
export function createFromUrl(sourceUrl: string, options: INodeParameters = {}): INodeParameters {
	return {
		resource: 'job',
		operation: 'create',
		workflow: 'conversion',
		source: 'url',
		sourceUrl,
		format: 'dst',
		options,
	};
}

/** Job > Download of a conversion job's files (the preview unless `files` names others). */
export function downloadFiles(jobId: string, files: string[] = ['preview']): INodeParameters {
	return { resource: 'job', operation: 'download', jobId, workflow: 'conversion', files };
}
