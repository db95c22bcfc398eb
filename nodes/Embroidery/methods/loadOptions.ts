import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { threadPalettes } from '../helpers/threadPalettes';
import { FormatsResponseSchema, embroideryApiRequest, routes } from '../transport';

/** Formats a job can produce, with the service's compatibility warning as the option's description. */
export async function getWritableFormats(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const answer = await embroideryApiRequest.call(this, {
		...routes.listFormats(),
		schema: FormatsResponseSchema,
	});
	return answer.data
		.filter((format) => format.writable)
		.map((format) => ({
			name: `${format.label} (.${format.format})`,
			value: format.format,
			description: format.warning ?? undefined,
		}));
}

/** The service has no palette listing; these are the keys its spec names. */
export async function getThreadPalettes(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return threadPalettes.map((palette) => ({ name: palette.label, value: palette.key }));
}
