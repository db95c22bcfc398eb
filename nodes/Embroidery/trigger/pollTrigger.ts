import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { clock, credentialType, jobKey, nodeErrorOf } from '../transport';
import type { JobEnding, Workflow } from '../transport';
import type { TriggerOptions } from './jobItems';
import { jobEndingItem } from './jobItems';
import { fetchJobIfPresent, listRecentJobs } from './jobRequests';
import type { FetchedJob, ListedJob } from './jobRequests';
import { pollJobs } from './pollJobs';
import type { TrackedJob, TriggerFilter } from './pollState';
import { holdBackEndings, matchesFilter, readPollState } from './pollState';

/** Static data of an active trigger node: the poll state and the credential it belongs to. */
interface SavedTriggerData extends IDataObject {
	credential?: string;
	state?: IDataObject;
}

/** What one activation of the node remembers between its polls; lost on a restart, unlike static data. */
interface ActivationMemory {
	/** The poll that owns the state now; a poll that is no longer it discards what it found. */
	currentPoll?: { startedAt: number };
	/** What the last successful poll left, which a copy of the static data handed to a poll may not show yet. */
	lastSaved?: SavedTriggerData;
	/** Endings ("workflow/id:status") whose item could not be made, with the number of polls that failed so. */
	failedEndings?: Map<string, number>;
}

// Keyed by the poll functions, which n8n creates once per activation (static data may be a fresh copy on every poll).
const activations = new WeakMap<IPollFunctions, ActivationMemory>();
export const pollLimits = {
	/** A poll still running after this long is presumed stuck, so the next one may go ahead (the stuck one then emits nothing). */
	stuckPollMs: 15 * 60_000,
};
/** Polls in which one job's item may fail (its detail or files) before it is emitted with the failure on the item. */
export const FAILED_POLLS_BEFORE_REPORT = 2;

export function readFilter(context: IPollFunctions): TriggerFilter {
	const events = context.getNodeParameter('events', []) as JobEnding[];
	if (events.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Choose at least one event to trigger on', {
			description: 'Select Job Completed, Job Failed or both under Trigger On.',
		});
	}
	const unknownEvent = events.find((event) => event !== 'completed' && event !== 'failed');
	if (unknownEvent !== undefined) {
		throw new NodeOperationError(context.getNode(), `Trigger On holds "${String(unknownEvent)}", which is not an event`, {
			description: 'Use "completed", "failed" or both.',
		});
	}
	const workflow = context.getNodeParameter('workflow', 'both') as Workflow | 'both';
	if (workflow !== 'both' && workflow !== 'conversion' && workflow !== 'digitising') {
		throw new NodeOperationError(context.getNode(), `Workflow is "${String(workflow)}", which is not a workflow`, {
			description: 'Use "both", "conversion" or "digitising".',
		});
	}
	const workflows: Workflow[] = workflow === 'both' ? ['conversion', 'digitising'] : [workflow];
	return { events, workflows };
}

export function readOptions(context: IPollFunctions): TriggerOptions {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	// Version 1 triggers keep their output: warnings only with Include Full Job.
	const showWarnings = context.getNode().typeVersion >= 1.1 && context.getNodeParameter('showWarnings', true) !== false;
	return { includeFullJob: options.includeFullJob === true, downloadFiles: options.downloadFiles === true, showWarnings };
}

function credentialIdOf(context: IPollFunctions): string {
	const credential = context.getNode().credentials?.[credentialType];
	return credential?.id ?? credential?.name ?? 'default';
}

/** The editor's test run: the newest matching job as a sample, without moving any state. */
async function sampleRecentJob(context: IPollFunctions, filter: TriggerFilter, options: TriggerOptions) {
	const listing = await listRecentJobs(context);
	const newest = listing.find((job) => matchesFilter(job, filter));
	if (!newest) {
		const events = filter.events.join(' or ');
		const workflows = filter.workflows.join(' or ');
		throw new NodeOperationError(
			context.getNode(),
			`None of the 50 most recent jobs is a ${workflows} job that ${events}`,
			{
				description:
					'Create a job with the Embroidery node (Job > Create) and let it finish, or widen Trigger On and Workflow, then test again.',
			},
		);
	}
	return [[await jobEndingItem(context, { job: newest, listed: newest }, options)]];
}

/** One active poll: one listing, follow-ups for jobs that left it, then the items of the jobs that ended. */
async function emitEndedJobs(
	context: IPollFunctions,
	memory: ActivationMemory,
	poll: ActivationMemory['currentPoll'],
	filter: TriggerFilter,
	options: TriggerOptions,
): Promise<INodeExecutionData[][] | null> {
	const saved = context.getWorkflowStaticData('node') as SavedTriggerData;
	const credential = credentialIdOf(context);
	// Activated by the user: start from the jobs as they are now. After a restart or a republish: carry on.
	const activatedNow = context.getActivationMode() === 'activate' && memory.lastSaved === undefined;
	const last = memory.lastSaved ?? saved;
	// Another credential may mean another account: its jobs start from a fresh baseline too.
	const previous = !activatedNow && last.credential === credential ? readPollState(last.state) : undefined;
	const result = await pollJobs<ListedJob, FetchedJob>(
		previous,
		{ listJobs: async () => await listRecentJobs(context), getJob: async (job) => await fetchJobIfPresent(context, job) },
		filter,
	);
	if (result.mayHaveMissedJobs) {
		context.logger.warn(
			`Embroidery Trigger "${context.getNode().name}": more than 50 jobs were created since the last poll, so the oldest of them may never be seen; poll more often`,
		);
	}
	for (const job of result.abandoned) {
		context.logger.warn(
			`Embroidery Trigger "${context.getNode().name}" stopped following ${job.workflow} job ${job.id}: too many unfinished jobs left the listing`,
		);
	}
	const items: INodeExecutionData[] = [];
	const heldBack: TrackedJob[] = [];
	const failedEndings = new Map<string, number>();
	for (const ended of result.endings) {
		const ending = `${jobKey(ended.job)}:${ended.job.status}`;
		// Each try is already retried by the transport; after a few failed polls the failure goes on the item instead.
		const failedPolls = memory.failedEndings?.get(ending) ?? 0;
		try {
			items.push(await jobEndingItem(context, ended, options, failedPolls >= FAILED_POLLS_BEFORE_REPORT));
		} catch (error) {
			heldBack.push(ended.job);
			failedEndings.set(ending, failedPolls + 1);
			context.logger.warn(
				`Embroidery Trigger "${context.getNode().name}": poll failed, trying again at the next poll for ${ended.job.workflow} job ${ended.job.id}: ${nodeErrorOf(context.getNode(), error).message}`,
			);
		}
	}
	if (memory.currentPoll !== poll) {
		context.logger.warn(
			`Embroidery Trigger "${context.getNode().name}": a poll that ran longer than ${pollLimits.stuckPollMs / 1000} s was overtaken by a later one; its findings are dropped, the later poll's stand`,
		);
		return null;
	}
	memory.failedEndings = failedEndings;
	// Jobs whose item failed stay unfinished in the state, so the next poll finds their ending again.
	const state = heldBack.length > 0 ? holdBackEndings(result.state, heldBack) : result.state;
	saved.credential = credential;
	saved.state = state as unknown as IDataObject;
	memory.lastSaved = { credential, state: state as unknown as IDataObject };
	return items.length > 0 ? [items] : null;
}

export async function pollForEndedJobs(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const filter = readFilter(context);
	const options = readOptions(context);
	if (context.getMode() === 'manual') return await sampleRecentJob(context, filter, options);

	const memory = activations.get(context) ?? {};
	activations.set(context, memory);
	if (memory.currentPoll !== undefined && clock.now() - memory.currentPoll.startedAt < pollLimits.stuckPollMs) {
		// Two polls over one state would emit the same endings twice.
		context.logger.debug(`Embroidery Trigger "${context.getNode().name}": the previous poll is still running; skipping this one`);
		return null;
	}
	const poll = { startedAt: clock.now() };
	memory.currentPoll = poll;
	try {
		return await emitEndedJobs(context, memory, poll, filter, options);
	} catch (error) {
		if (memory.currentPoll !== poll) return null;
		// The first poll of an activation throws, so a broken credential shows up when the workflow is activated.
		if (memory.lastSaved === undefined) throw nodeErrorOf(context.getNode(), error);
		context.logger.warn(
			`Embroidery Trigger "${context.getNode().name}": poll failed, trying again at the next poll: ${(error as Error).message}`,
		);
		return null;
	} finally {
		if (memory.currentPoll === poll) memory.currentPoll = undefined;
	}
}
