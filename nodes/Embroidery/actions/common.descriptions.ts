import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { defaultTimeoutSeconds } from '../helpers/deliverWhenDone';
import type { FileKind } from '../helpers/jobFiles';
import { jobFieldsKept } from '../helpers/simplify';
import type { OutputChoices, Shaping } from '../helpers/simplify';

// The editor's parameters that several operations (and the trigger) share, beside the one helper that writes
// their node-version conditions. An operation's own parameters stay in its operation file; helpers/ keeps only
// what the parameters make the node do.

/** Shown from this node version on (n8n's `@version` condition). */
export function shownFromVersion(version: number): {
	'@version': Array<{ _cnd: { gte: number } }>;
} {
	return { '@version': [{ _cnd: { gte: version } }] };
}

/** Shown in these node versions only. */
export function shownInVersions(...versions: number[]): { '@version': number[] } {
	return { '@version': versions };
}

/** Each kind of a job's file as the editor offers it: Job > Download's Files and a wait's Download Results. */
export const jobFileOptions: Record<FileKind, INodePropertyOptions> = {
	outputs: {
		name: 'Output Files',
		value: 'outputs',
		description: "The machine files; the job must be unlocked first (operation 'Unlock')",
	},
	preview: {
		name: 'Preview',
		value: 'preview',
		description: 'The stitch preview, watermarked while locked',
	},
	source: {
		name: 'Source',
		value: 'source',
		description: 'The file the job was created from, while the service keeps it',
	},
};

/** Wait-and-download settings shared by Create (optional) and Wait for Completion. */
export const completionFields: INodeProperties[] = [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description: 'Whether to poll until each job is completed or failed before passing it on',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		default: defaultTimeoutSeconds,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { waitForCompletion: [true] } },
		description:
			'How long to wait in total; a job still running then ends its item with a message that it timed out',
	},
	{
		displayName: 'Download Results',
		name: 'downloadResults',
		type: 'multiOptions',
		default: [],
		displayOptions: { show: { waitForCompletion: [true] } },
		options: [jobFileOptions.outputs, jobFileOptions.preview],
		description: 'Which files of each completed job to attach as binary data',
	},
	{
		displayName: 'Unlock Before Download',
		name: 'unlockBeforeDownload',
		type: 'boolean',
		default: false,
		displayOptions: { show: { waitForCompletion: [true], downloadResults: ['outputs'] } },
		description:
			'Whether to unlock each completed job so its machine files can be downloaded. Unlocking ' +
			'spends a subscription entitlement or credits per job.',
	},
	{
		displayName: 'Include Full Job',
		name: 'includeFullJob',
		type: 'boolean',
		default: false,
		displayOptions: { show: { waitForCompletion: [true] } },
		description:
			'Whether to fetch the detailed job (warnings, events, unlock state, all outputs and ' +
			'artifacts) for each completed job. Costs one request per job. Without it, a completed ' +
			'job comes as listed (status, metrics, signed file links); failed jobs and jobs the node ' +
			'unlocks always come detailed.',
	},
	{
		displayName: 'Show Warnings',
		name: 'showWarnings',
		type: 'boolean',
		default: true,
		displayOptions: { show: { waitForCompletion: [true] } },
		description:
			"Whether to show each completed job's warnings (compatibility or production notes from " +
			'the service) on its item and in the editor. Costs one request per completed job that ' +
			'does not come detailed anyway.',
	},
];

/** The Create operation's option that lets a Source URL reach private networks (off by default). */
export const allowPrivateNetworksOption: INodeProperties = {
	displayName: 'Allow Private Network Addresses',
	name: 'allowPrivateNetworks',
	type: 'boolean',
	default: false,
	displayOptions: { show: { '/source': ['url'] } },
	description:
		"Whether the 'Source URL' may lead to a loopback, private (10.x, 172.16-31.x, 192.168.x), " +
		'link-local, carrier-grade NAT or unique-local address. Off, such links and redirects are ' +
		"refused so a workflow cannot reach the n8n server's own network or a cloud metadata " +
		'service. Turn it on only on a self-hosted n8n whose artwork lives on an intranet, when ' +
		'you trust where the links come from.',
};

/** The Simplify switch of the Embroidery node (Get, Get Many) and the trigger, as version 2 and 1.1 have it. */
export function simplifyPropertyAsVersion2(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return a simplified version of the response instead of the raw data: ID, ' +
			'workflow, status, formats, file names and sizes, metrics, warnings and failure, without ' +
			'signed links or raw objects',
		displayOptions,
	};
}

/** A Simplify switch (from node version 3 and trigger 1.2); `kept` says which fields it keeps. */
export function simplifyProperty(
	displayOptions: IDisplayOptions,
	kept = jobFieldsKept,
): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: `Whether to return a simplified version of the response instead of the raw data: ${kept}`,
		displayOptions,
	};
}

/** The AI tool variant's Output (from version 3): Simplified, Raw, or the fields the agent needs. */
export function outputProperties(
	displayOptions: IDisplayOptions,
	choices: OutputChoices,
): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'simplified',
			displayOptions,
			options: [
				{
					name: 'Raw',
					value: 'raw',
					description: 'Every field the service returns, nested objects included',
				},
				{ name: 'Selected Fields', value: 'selected', description: choices.selected },
				{ name: 'Simplified', value: 'simplified', description: choices.simplified },
			],
			description:
				"What the tool answers with; an agent cannot read binary files, so a job's answer carries its file links",
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			default: [],
			displayOptions: { show: { ...displayOptions.show, output: ['selected'] } },
			options: [...choices.fields].sort((a, b) => a.name.localeCompare(b.name)),
			description: 'The fields to return; none chosen returns only what is always kept',
		},
	];
}

/** The action node's versions that show Simplify and Output. */
const inVersion2 = shownInVersions(2);
const fromVersion3 = shownFromVersion(3);

/**
 * Simplify and Output in the action node: Simplify as version 2 shipped it where the answer had it then, and
 * from version 3 Simplify in a workflow and Output in the AI tool variant.
 */
export function shapingProperties(shaping: Shaping, fromVersion: 2 | 3): INodeProperties[] {
	return [
		...(fromVersion === 2 ? [simplifyPropertyAsVersion2({ show: inVersion2 })] : []),
		simplifyProperty({ show: { ...fromVersion3, '@tool': [false] } }, shaping.kept),
		...outputProperties({ show: { ...fromVersion3, '@tool': [true] } }, shaping.choices),
	];
}
