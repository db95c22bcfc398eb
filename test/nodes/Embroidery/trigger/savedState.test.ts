/**
 * claimSavedState in n8n-core's own poll context: the trigger's state kept in the node's static data, what one n8n
 * process remembers per workflow and node between polls, and the guard that keeps two polls off one state.
 */
import { PollContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { EmbroideryTrigger } from '../../../../nodes/Embroidery/EmbroideryTrigger.node';
import { pollJobs } from '../../../../nodes/Embroidery/trigger/pollJobs';
import {
	ACTIVATION_POLL_DELAY_MS,
	CLOCK_SKEW_TOLERANCE_MS,
} from '../../../../nodes/Embroidery/trigger/pollLimits';
import { longestPollGapMs } from '../../../../nodes/Embroidery/trigger/pollSchedule';
import type { PollState, TriggerFilter } from '../../../../nodes/Embroidery/trigger/pollState';
import { STATE_VERSION } from '../../../../nodes/Embroidery/trigger/pollState';
import { claimSavedState } from '../../../../nodes/Embroidery/trigger/savedState';
import { ensureBinaryDataService } from '../../../support/binaryData';
import { JobsInMemory } from './support/jobsInMemory';

const savedStatePath = '../../../../nodes/Embroidery/trigger/savedState';
const stuckPollMs = 15 * 60_000;
let workflowsMade = 0;

/** One active workflow holding the trigger: what n8n's database holds for it, and the poll contexts n8n builds. */
class ActiveWorkflow {
	private readonly id = `saved-state-workflow-${++workflowsMade}`;

	private readonly node: INode = {
		id: 'trigger-node',
		name: 'Embroidery Trigger',
		type: 'n8n-nodes-embroidery.embroideryTrigger',
		typeVersion: 1.2,
		position: [0, 0],
		parameters: {},
	};

	private workflow?: Workflow;

	/** The workflow's static data as n8n's database holds it. */
	database: IDataObject = {};

	/**
	 * A poll context over the workflow as the database holds it, as n8n builds one at an activation (and, under
	 * n8n 2.41's scheduler, for every poll). `nodeStaticData` stands for n8n's poll cursor: the poll's own copy.
	 */
	context(activation: WorkflowActivateMode, nodeStaticData?: () => IDataObject): PollContext {
		this.workflow = new Workflow({
			id: this.id,
			nodes: [this.node],
			connections: {},
			nodeTypes: {
				getByName: () => new EmbroideryTrigger() as INodeType,
				getByNameAndVersion: () => new EmbroideryTrigger() as INodeType,
				getKnownTypes: () => ({}),
			},
			active: true,
			staticData: JSON.parse(JSON.stringify(this.database)) as IDataObject,
		});
		const additionalData = { variables: {} } as unknown as IWorkflowExecuteAdditionalData;
		return new PollContext(
			this.workflow,
			this.node,
			additionalData,
			'trigger',
			activation,
			undefined,
			undefined,
			undefined,
			undefined,
			nodeStaticData,
		);
	}

	/** n8n writes the workflow's static data to its database after a poll. */
	saveStaticData(): void {
		this.database = JSON.parse(JSON.stringify(this.workflow?.staticData ?? {})) as IDataObject;
	}
}

/** savedState.ts as a freshly started n8n process loads it: nothing remembered yet. */
function inNewProcess(): typeof claimSavedState {
	let claim: typeof claimSavedState | undefined;
	jest.isolateModules(() => {
		const fresh = require(
			savedStatePath,
		) as typeof import('../../../../nodes/Embroidery/trigger/savedState');
		claim = fresh.claimSavedState;
	});
	return claim!;
}

function stateWith(...ids: string[]): PollState {
	return {
		version: STATE_VERSION,
		floor: null,
		jobs: ids.map((id) => ({ id, workflow: 'conversion', status: 'processing' })),
	};
}

beforeAll(async () => await ensureBinaryDataService());

describe('claimSavedState', () => {
	it('keeps a second poll off the state while the first runs, until the first has run longer than stuckPollMs', () => {
		const context = new ActiveWorkflow().context('activate');
		const first = claimSavedState(context, 'cred-1', 0, stuckPollMs)!;
		expect(first.owns()).toBe(true);
		expect(claimSavedState(context, 'cred-1', stuckPollMs - 1, stuckPollMs)).toBeUndefined();
		const overtaking = claimSavedState(context, 'cred-1', stuckPollMs, stuckPollMs)!;
		expect([first.owns(), overtaking.owns()]).toEqual([false, true]);
		// The overtaken poll's release leaves the later poll's claim alone.
		first.release();
		expect(claimSavedState(context, 'cred-1', stuckPollMs + 1, stuckPollMs)).toBeUndefined();
		overtaking.release();
		expect(claimSavedState(context, 'cred-1', stuckPollMs + 2, stuckPollMs)?.owns()).toBe(true);
	});

	it('saves into the node static data; a restart carries on from it, an activation by the user does not', () => {
		const active = new ActiveWorkflow();
		const first = claimSavedState(active.context('activate'), 'cred-1', 0, stuckPollMs)!;
		expect([first.previous, first.hasSaved]).toEqual([undefined, false]);
		first.save(stateWith('A'));
		first.release();
		active.saveStaticData();
		expect(active.database).toEqual({
			'node:Embroidery Trigger': { credential: 'cred-1', state: stateWith('A') },
		});

		const restarted = inNewProcess()(active.context('init'), 'cred-1', 1, stuckPollMs)!;
		expect([restarted.previous, restarted.hasSaved]).toEqual([stateWith('A'), false]);
		const activatedAgain = inNewProcess()(active.context('activate'), 'cred-1', 1, stuckPollMs)!;
		expect(activatedAgain.previous).toBeUndefined();
		// The same process, the user deactivates and activates the workflow: its memory starts again too.
		const reactivated = claimSavedState(active.context('activate'), 'cred-1', 2, stuckPollMs)!;
		expect([reactivated.previous, reactivated.hasSaved]).toEqual([undefined, false]);
	});

	it("carries on from what this process saved when a poll's copy of the static data lacks it (poll cursor)", () => {
		const active = new ActiveWorkflow();
		const first = claimSavedState(active.context('activate'), 'cred-1', 0, stuckPollMs)!;
		first.save(stateWith('A'));
		first.release();
		// n8n 2.41's scheduler: a new context for this poll, whose copy of the static data was taken before the save.
		const staleCopy = {};
		const next = claimSavedState(
			active.context('update', () => staleCopy),
			'cred-1',
			1,
			stuckPollMs,
		)!;
		expect([next.previous, next.hasSaved]).toEqual([stateWith('A'), true]);
		next.save(stateWith('A', 'B'));
		expect(staleCopy).toEqual({ credential: 'cred-1', state: stateWith('A', 'B') });
	});

	it('starts from a fresh baseline when the credential changes', () => {
		const active = new ActiveWorkflow();
		const first = claimSavedState(active.context('activate'), 'cred-1', 0, stuckPollMs)!;
		first.save(stateWith('A'));
		first.release();
		expect(
			claimSavedState(active.context('update'), 'cred-2', 1, stuckPollMs)?.previous,
		).toBeUndefined();
	});

	it('dates a fresh baseline taken after the activation poll from the activation, until a poll of it saves', () => {
		const active = new ActiveWorkflow();
		const activation = claimSavedState(active.context('activate'), 'cred-1', 100, stuckPollMs)!;
		// The activation's own poll lists what ended before it: that listing is the baseline.
		expect([activation.previous, activation.activatedAt]).toEqual([undefined, undefined]);
		// The activation poll saves nothing (n8n 2.41's poll cursor drops its write, or it was cut short): the
		// next poll, an hour later under an hourly schedule, still counts from the activation.
		activation.release();
		const hourLater = claimSavedState(active.context('update'), 'cred-1', 3_600_100, stuckPollMs)!;
		expect([hourLater.previous, hourLater.activatedAt]).toEqual([undefined, 100]);
		hourLater.save(stateWith('A'));
		hourLater.release();
		const otherCredential = claimSavedState(
			active.context('update'),
			'cred-2',
			7_200_100,
			stuckPollMs,
		)!;
		expect([otherCredential.previous, otherCredential.activatedAt]).toEqual([undefined, undefined]);
		otherCredential.release();
		// Activated again by the user: a new activation, whose first poll is its baseline again.
		const again = claimSavedState(active.context('activate'), 'cred-1', 9_000_000, stuckPollMs)!;
		expect([again.previous, again.activatedAt]).toEqual([undefined, undefined]);
		again.release();
		const next = claimSavedState(active.context('update'), 'cred-1', 9_060_000, stuckPollMs)!;
		expect([next.previous, next.activatedAt]).toEqual([undefined, 9_000_000]);
	});

	it('counts a failing streak from its first failure, notes when it was reported, and a save ends it', () => {
		const context = new ActiveWorkflow().context('activate');
		const poll = () => claimSavedState(context, 'cred-1', 0, stuckPollMs)!;
		const failing = poll();
		expect(failing.failed(10)).toEqual({ since: 10 });
		failing.release();
		const stillFailing = poll();
		expect(stillFailing.failed(20)).toEqual({ since: 10 });
		stillFailing.reported(20);
		expect(stillFailing.failed(30)).toEqual({ since: 10, reportedAt: 20 });
		stillFailing.release();
		const working = poll();
		working.save(stateWith());
		working.release();
		expect(poll().failed(40)).toEqual({ since: 40 });
	});
});

const minute = 60_000;
const hour = 60 * minute;
const both: TriggerFilter = {
	events: ['completed', 'failed'],
	workflows: ['conversion', 'digitising'],
};
const nodeKey = 'node:Embroidery Trigger';

/**
 * One poll as n8n 2.41's scheduler makes it at a tick of the schedule: a context of its own with the activation
 * mode 'update', over a copy of the static data that n8n commits after the poll. The service's clock is driven.
 */
async function scheduledPoll(
	active: ActiveWorkflow,
	jobs: JobsInMemory,
	pollTimes: unknown,
): Promise<string[]> {
	const copy = JSON.parse(JSON.stringify(active.database[nodeKey] ?? {})) as IDataObject;
	const now = jobs.now();
	const handle = claimSavedState(
		active.context('update', () => copy),
		'cred-1',
		now,
		stuckPollMs,
		longestPollGapMs(pollTimes),
	)!;
	try {
		const result = await pollJobs(handle.previous, jobs.source(), both, {
			now,
			activatedAt: handle.activatedAt,
		});
		handle.save(result.state);
		active.database = { ...active.database, [nodeKey]: copy };
		return result.endings.map(({ job }) => job.id).sort();
	} finally {
		handle.release();
	}
}

describe('the first poll of an activation that n8n did not poll at once (n8n 2.41 scheduler)', () => {
	const hourly = { item: [{ mode: 'everyHour', minute: 0 }] };
	const everyMinute = { item: [{ mode: 'everyMinute' }] };

	it(
		'comes at the next tick of an hourly schedule and emits every job that ended after the activation, ' +
			'once, and none that ended before the previous tick',
		async () => {
			const jobs = new JobsInMemory();
			// Ended before the activation: never emitted (each poll's endings are compared in full).
			jobs.create('conversion', 'completed');
			const runningAtActivation = jobs.create('conversion', 'processing');
			// The schedule's previous tick, then the activation 10 minutes later; n8n does not poll at once.
			jobs.advance(30 * minute);
			jobs.advance(10 * minute);
			const active = new ActiveWorkflow();
			jobs.advance(6_000);
			const atOnce = jobs.create('conversion', 'completed');
			jobs.advance(20 * minute);
			const failed = jobs.create('digitising', 'failed');
			const stillRunning = jobs.create('conversion', 'processing');
			// The next tick, an hour after the previous one.
			jobs.advance(30 * minute);
			expect(await scheduledPoll(active, jobs, hourly)).toEqual([atOnce, failed].sort());
			jobs.set(runningAtActivation, 'completed');
			jobs.set(stillRunning, 'failed');
			jobs.advance(hour);
			expect(await scheduledPoll(active, jobs, hourly)).toEqual(
				[runningAtActivation, stillRunning].sort(),
			);
			jobs.advance(hour);
			expect(await scheduledPoll(active, jobs, hourly)).toEqual([]);
		},
	);

	it('every minute: a job created 6 s after the activation is emitted once, one that ended earlier never', async () => {
		const jobs = new JobsInMemory();
		const endedBefore = jobs.create('conversion', 'completed');
		jobs.advance(CLOCK_SKEW_TOLERANCE_MS + 2 * minute);
		const active = new ActiveWorkflow();
		jobs.advance(6_000);
		const job = jobs.create('conversion', 'completed');
		jobs.advance(40_000);
		expect(await scheduledPoll(active, jobs, everyMinute)).toEqual([job]);
		jobs.advance(minute);
		expect(await scheduledPoll(active, jobs, everyMinute)).toEqual([]);
		// n8n restarted: the memory is gone, the committed static data carries on.
		const restarted = inNewProcess();
		jobs.advance(minute);
		const copy = JSON.parse(JSON.stringify(active.database[nodeKey])) as IDataObject;
		const handle = restarted(
			active.context('update', () => copy),
			'cred-1',
			jobs.now(),
			stuckPollMs,
			minute,
		)!;
		expect(handle.previous?.jobs.map(({ id }) => id).sort()).toEqual([endedBefore, job].sort());
	});

	it("dates the activation at the poll itself when it is the activation's own poll, whatever the schedule", () => {
		const active = new ActiveWorkflow();
		for (const mode of ['activate', 'init'] as const) {
			const first = inNewProcess()(active.context(mode), 'cred-1', 5 * hour, stuckPollMs, hour)!;
			expect([first.previous, first.activatedAt]).toEqual([undefined, undefined]);
			first.release();
		}
		// A scheduled first poll without a schedule it can read (a custom cron) keeps its listing as the baseline.
		const custom = inNewProcess()(active.context('update'), 'cred-1', 5 * hour, stuckPollMs)!;
		expect([custom.previous, custom.activatedAt]).toEqual([undefined, undefined]);
		custom.release();
		const scheduled = inNewProcess()(
			active.context('update'),
			'cred-1',
			5 * hour,
			stuckPollMs,
			hour,
		)!;
		expect([scheduled.previous, scheduled.activatedAt]).toEqual([undefined, 4 * hour]);
	});
});

describe('the activation poll of a workflow the user activated in a running n8n', () => {
	it(
		'emits what ended between the click and the poll (n8n 2.41 publishes in the background), nothing ' +
			'earlier, and an n8n start still takes its listing as the baseline',
		async () => {
			const jobs = new JobsInMemory();
			jobs.create('conversion', 'completed');
			jobs.advance(ACTIVATION_POLL_DELAY_MS + minute);
			// The user publishes; a job created 6 s later ends at once; n8n's publication outbox polls 15 s later.
			jobs.advance(6_000);
			const between = jobs.create('conversion', 'completed');
			jobs.advance(15_000);
			const activationPoll = async (mode: 'activate' | 'init') => {
				const handle = inNewProcess()(
					new ActiveWorkflow().context(mode),
					'cred-1',
					jobs.now(),
					stuckPollMs,
					minute,
				)!;
				const result = await pollJobs(handle.previous, jobs.source(), both, {
					now: jobs.now(),
					activatedAt: handle.activatedAt,
					endedSince: handle.endedSince,
				});
				return result.endings.map(({ job }) => job.id);
			};
			expect(await activationPoll('activate')).toEqual([between]);
			expect(await activationPoll('init')).toEqual([]);
		},
	);
});
