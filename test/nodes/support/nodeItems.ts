/** The items the node's tests feed it (an embroidery file, artwork) and a run of the node that gives its items back. */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../support/nodeRun';
import type { ApiCredentials } from '../../support/n8nCredentials';
import type { InputItem, NodeRun, RunNodeOptions } from '../../support/nodeRun';

import { fixture } from '../../support/embroideryFiles';

export function embroideryItem(name: string, field = 'data'): InputItem {
	return {
		binary: {
			[field]: { data: fixture(name), fileName: name, mimeType: 'application/octet-stream' },
		},
	};
}

/** A small artwork the digitiser accepts: two coloured shapes on white. */
export const artworkSvg = Buffer.from(
	'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120">' +
		'<rect width="200" height="120" fill="#ffffff"/>' +
		'<circle cx="60" cy="60" r="45" fill="#d6336c"/>' +
		'<rect x="115" y="20" width="70" height="80" fill="#1c7ed6"/></svg>',
);

export function artworkItem(field = 'data'): InputItem {
	return {
		binary: { [field]: { data: artworkSvg, fileName: 'logo.svg', mimeType: 'image/svg+xml' } },
	};
}

export async function run(
	credentials: ApiCredentials,
	parameters: INodeParameters,
	input?: InputItem[],
	extra: Partial<RunNodeOptions> = {},
): Promise<NodeRun> {
	return await runNode({ credentials, parameters, input, ...extra });
}

/** The run's items, or the run's error as a failed expectation with its message. */
export function itemsOf(result: NodeRun) {
	if (result.error)
		throw new Error(
			`The node failed: ${result.error.message} | ${String(result.error.description ?? '')}`,
		);
	return result.items;
}
