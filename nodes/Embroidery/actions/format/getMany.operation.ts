import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FormatsResponseSchema, embroideryApiRequest, routes } from '../../transport';
import { sameForEveryVersion } from '../types';
import type { OperationOption, OperationOutput } from '../types';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'List the embroidery formats and the artwork types the service accepts',
	action: 'Get many formats',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'formats',
		options: [
			{
				name: 'One Item per Format',
				value: 'formats',
				description:
					'Each embroidery format with whether it can be read and written, and its warning',
			},
			{
				name: 'One Summary Item',
				value: 'summary',
				description: 'A single item with all formats and the artwork file types digitising accepts',
			},
		],
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Readable Only',
				name: 'readableOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to keep only formats that conversion accepts as a source',
			},
			{
				displayName: 'Writable Only',
				name: 'writableOnly',
				type: 'boolean',
				default: false,
				description: 'Whether to keep only formats that jobs can produce',
			},
		],
	},
];

export const routesCalled = ['listFormats'] as const;

export const toolDescription = sameForEveryVersion(
	'Lists the embroidery machine formats the service can read and write, with ' +
		'compatibility warnings, and the artwork file types digitising accepts. Free; nothing to fill.',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const output = this.getNodeParameter('output', itemIndex, 'formats') as string;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		writableOnly?: boolean;
		readableOnly?: boolean;
	};
	const answer = await embroideryApiRequest.call(this, {
		...routes.listFormats(),
		schema: FormatsResponseSchema,
		itemIndex,
	});
	const formats = answer.data
		.filter((format) => !filters.writableOnly || format.writable)
		.filter((format) => !filters.readableOnly || format.readable);
	if (output === 'summary') {
		return [{ json: { formats: formats as IDataObject[], artworkInputs: answer.artworkInputs } }];
	}
	return formats.map((format) => ({ json: { ...format } as IDataObject }));
}
