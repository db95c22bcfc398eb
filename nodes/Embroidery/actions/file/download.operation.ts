import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { downloadToBinary } from '../../helpers/binary';
import { isUsableLink } from '../../helpers/fileLinks';
import { signedUrlAdvice } from '../../transport';
import type { OperationOption, OperationOutput, ToolTexts } from '../types';

export const option: OperationOption = {
	name: 'Download',
	description: 'Download a file from a complete signed URL',
	action: 'Download file',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Signed URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/api/v1/uploads/…/download?expires=…&signature=…',
		description:
			'A complete signed link from a job (its outputUrl, previewUrl or downloadUrl), used ' +
			'exactly as given. Links expire; get the job again for fresh ones.',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		description: 'The binary field to put the downloaded file in',
	},
];

export const routesCalled = ['signedFile'] as const;

/** Each version's text names the links its Get answers with. */
export const toolDescription: ToolTexts = {
	1:
		'Downloads one signed file link exactly as a job returned it (its downloadUrl or ' +
		'previewUrl) as binary data. Free. Fill URL with the complete link.',
	2:
		'Downloads one signed file link exactly as a job returned it (its downloadUrl or ' +
		'previewUrl; Get gives links only with Simplify off) as binary data. Free. Fill URL with ' +
		'the complete link.',
	3:
		'Downloads one signed file link exactly as a job returned it (its outputUrl or ' +
		'previewUrl from Get) as binary data, for a later workflow step; a model cannot read the ' +
		'file, so give the user the link instead. Free. Fill URL with the complete link.',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const url = String(this.getNodeParameter('url', itemIndex, '')).trim();
	const field =
		String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim() || 'data';
	if (!url) {
		throw new NodeOperationError(this.getNode(), `'Signed URL' is empty`, {
			itemIndex,
			description: signedUrlAdvice.empty,
		});
	}
	if (!isUsableLink(url)) {
		// The signature is a secret of its own: the message does not repeat the link.
		throw new NodeOperationError(this.getNode(), `'Signed URL' is not a URL the node can read`, {
			itemIndex,
			description: signedUrlAdvice.unreadable,
		});
	}
	const binary = await downloadToBinary(this, url, itemIndex);
	return [
		{
			json: {
				fileName: binary.fileName ?? null,
				mimeType: binary.mimeType,
				fileSize: binary.fileSize ?? null,
			},
			binary: { [field]: binary },
		},
	];
}
