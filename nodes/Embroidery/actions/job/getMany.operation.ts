import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { jobShaping } from '../../helpers/simplify';
import { unusableListedLinks } from '../../helpers/fileLinks';
import { listItemToJson } from '../../helpers/knownJob';
import {
	JobsListResponseSchema,
	embroideryApiRequest,
	jobAdvice,
	jobsListingSize,
	routes,
} from '../../transport';
import type { LeftOutEntry } from '../../transport';
import type { OperationOption, OperationOutput, OutputShaping, ToolTexts } from '../types';
import { version3JobAnswer } from './fields';

export const option: OperationOption = {
	name: 'Get Many',
	description: `List the ${jobsListingSize} most recent jobs`,
	action: 'Get many jobs',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1, maxValue: jobsListingSize },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				default: [],
				options: [
					{ name: 'Completed', value: 'completed' },
					{ name: 'Failed', value: 'failed' },
					{ name: 'Processing', value: 'processing' },
					{ name: 'Queued', value: 'queued' },
				],
				description: 'Only jobs in one of these states',
			},
			{
				displayName: 'Workflow',
				name: 'workflow',
				type: 'options',
				default: '',
				options: [
					{ name: 'All', value: '' },
					{ name: 'Conversion', value: 'conversion' },
					{ name: 'Digitising', value: 'digitising' },
				],
				description: 'Only jobs of this workflow',
			},
		],
	},
];

export const routesCalled = ['listJobs'] as const;

const listing =
	`Lists the account's most recent jobs (at most ${jobsListingSize}), newest first, with id, ` +
	`workflow, status and metrics. Free. Optional filters: status and workflow.`;

export const toolDescription: ToolTexts = {
	1: listing,
	2: listing,
	3:
		`Lists the account's most recent jobs (at most ${jobsListingSize}), newest ` +
		`first. ${version3JobAnswer} Free. Optional filters: status and workflow.`,
};

export const output: OutputShaping = { shaping: jobShaping, fromVersion: 2 };

/** A listing's locked and failed jobs are no news about this run; its items still carry their warnings. */
export const hintsOnJobs = false;

/** The entries the listing left out, in words: where each was, its id when it had one, what was wrong. */
function listedOut(entries: LeftOutEntry[]): string {
	const described = entries.map(
		(entry) =>
			`entry ${entry.position + 1}${entry.id ? ` (job ${entry.id})` : ''}: ${entry.problem}`,
	);
	const jobs = entries.length === 1 ? 'a job' : `${entries.length} jobs`;
	return `The service listed ${jobs} the node could not read, left out: ${described.join('; ')}.`;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationOutput[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		status?: string[];
		workflow?: string;
	};
	const listing = await embroideryApiRequest.call(this, {
		...routes.listJobs(),
		schema: JobsListResponseSchema,
		itemIndex,
	});
	// An entry the node cannot read at all costs only itself: the run says which, the other jobs are listed.
	if (listing.leftOut.length > 0 && typeof this.addExecutionHints === 'function') {
		this.addExecutionHints({
			type: 'warning',
			location: 'outputPane',
			message: `${listedOut(listing.leftOut)} ${jobAdvice.unreadableEntry}`,
		});
	}
	// The service lists the most recent jobs (jobsListingSize) and has no filter parameters, so filtering happens here.
	return listing.data
		.filter((job) => !filters.status?.length || filters.status.includes(job.status))
		.filter((job) => !filters.workflow || job.kind === filters.workflow)
		.slice(0, limit)
		.map((job) => {
			const json = listItemToJson(job);
			// A link the node cannot read costs only its file: the job is listed, with a note naming that file.
			const unusable = unusableListedLinks(job);
			if (unusable.length > 0) json.fileErrors = unusable;
			// So are fields of another type than the spec's: left out of the job, named here.
			const unread = listing.unreadFields[job.id];
			if (unread) json.fieldErrors = unread;
			return { json };
		});
}
