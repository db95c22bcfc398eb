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
import type { PollState } from '../../../../nodes/Embroidery/trigger/pollState';
import { STATE_VERSION } from '../../../../nodes/Embroidery/trigger/pollState';
import { claimSavedState } from '../../../../nodes/Embroidery/trigger/savedState';
import { ensureBinaryDataService } from '../../../support/binaryData';

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
