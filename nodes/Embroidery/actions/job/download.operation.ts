import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { sameStoredName, sentSourceOfItem, sourceMismatchError } from '../../helpers/sourcePairing';
import { downloadJobFiles } from '../../helpers/jobFiles';
import { jobFileOptions } from '../common.descriptions';
import type { FileKind } from '../../helpers/jobFiles';
import { jobRefOf, notFoundAnywhere } from '../../helpers/jobLocator';
import { fetchJob } from '../../helpers/fetchJob';
import { knownJobToJson } from '../../helpers/knownJob';
import { parameterAdvice } from '../../transport';
import { textForEachVersion } from '../types';
import type { OperationOption, OperationOutput } from '../types';
import { jobFieldsToFill, jobLocatorFields, jobRefFields } from './fields';

export const option: OperationOption = {
	name: 'Download',
	description:
		"Download a job's output files, preview or source as binary data; machine files need an unlocked job",
	action: 'Download job files',
};

export const description: INodeProperties[] = [
	...jobRefFields,
	...jobLocatorFields(),
	{
		displayName: 'Files',
		name: 'files',
		type: 'multiOptions',
		required: true,
		default: ['outputs'],
		options: [jobFileOptions.outputs, jobFileOptions.preview, jobFileOptions.source],
		description: 'Which files of the job to download as binary data',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Output Files Field',
				name: 'outputsField',
				type: 'string',
				default: 'data',
				description:
					'Binary field for the machine files (a second file gets the suffix _2, and so on)',
			},
			{
				displayName: 'Preview Field',
				name: 'previewField',
				type: 'string',
				default: 'preview',
				description: 'Binary field for the preview image',
			},
			{
				displayName: 'Source Field',
				name: 'sourceField',
				type: 'string',
				default: 'source',
				description: 'Binary field for the source file',
			},
		],
	},
];

/** Finding a job's workflow may list the recent jobs; refused links are fetched again with the job. */
export const routesCalled = ['listJobs', 'getJob', 'signedFile'] as const;

export const toolDescription = textForEachVersion(
	(version) =>
		"Downloads a job's files as binary data: the stitch preview (watermarked while locked), the " +
		`source, or the machine files (only after Unlock). Free. ${jobFieldsToFill(version)}`,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const { ref, located } = await jobRefOf(this, itemIndex);
	const kinds = this.getNodeParameter('files', itemIndex, []) as FileKind[];
	if (kinds.length === 0) {
		throw new NodeOperationError(this.getNode(), `'Files' is empty; choose what to download`, {
			itemIndex,
			description: parameterAdvice.noFiles,
		});
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		outputsField?: string;
		previewField?: string;
		sourceField?: string;
	};
	const fields = {
		outputs: options.outputsField || 'data',
		preview: options.previewField || 'preview',
		source: options.sourceField || 'source',
	};
	// A job whose workflow was found on its route comes with its detail: no second fetch.
	let known = located?.job ? { detail: located.job } : undefined;
	let downloaded;
	try {
		// An item of Create (Combine Items) carries the file its job was sent for: no file of another is attached.
		const { sentName } = sentSourceOfItem(this.getInputData()[itemIndex]?.json ?? {}, ref);
		if (sentName !== undefined) {
			known ??= { detail: await fetchJob(this, ref, itemIndex) };
			const shown = known.detail.source?.name;
			if (shown !== undefined && !sameStoredName(sentName, shown))
				throw sourceMismatchError(this.getNode(), ref, itemIndex, { sent: sentName, shown });
		}
		downloaded = await downloadJobFiles(this, ref, kinds, fields, itemIndex, known);
	} catch (error) {
		throw located ? notFoundAnywhere(this, error, located, itemIndex) : error;
	}
	const { job, binary, files } = downloaded;
	return [{ json: { ...knownJobToJson(job, ref.workflow), files }, binary }];
}
