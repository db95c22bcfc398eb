/**
 * Where the trigger's state is kept between polls: n8n's workflow static data (a copy of it per poll under n8n
 * 2.41's poll cursor, the object itself on n8n 1.x), and what this n8n process remembers per workflow and node
 * (the poll that owns the state, the state last saved, the failure streak). What the state is and how a poll
 * changes it is pollState.ts, which touches none of this.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { ACTIVATION_POLL_DELAY_MS } from './pollLimits';
import type { PollState } from './pollState';
import { readPollState } from './pollState';

/** Static data of an active trigger node: the poll state and the credential it belongs to. */
interface SavedTriggerData extends IDataObject {
	credential?: string;
	state?: IDataObject;
}

/** What one activation of the node remembers between its polls; lost on a restart, unlike static data. */
interface ActivationMemory {
	/**
	 * Since when endings are news to this activation. n8n polls once as it activates a workflow (the executor's
	 * testing poll, on 1.x and 2.x): that poll's start is the activation's time. Where n8n polls first at the
	 * schedule's next tick instead (n8n 2.41's scheduler), the activation came after the schedule's previous tick:
	 * the first poll's start less the longest gap between two polls.
	 */
	activatedAt: number;
	/** The poll that owns the state now; a poll that is no longer it discards what it found. */
	currentPoll?: { startedAt: number };
	/** What the last successful poll left, which a copy of the static data handed to a poll may not show yet. */
	lastSaved?: SavedTriggerData;
	/** Polls failing in a row since this time, and when that was last reported through n8n. */
	failing?: { since: number; reportedAt?: number };
}

/**
 * Keyed by workflow and node: n8n 1.x and 2.x by default make one poll context per activation, but n8n 2.41's
 * scheduler makes a new one for every poll, so the context cannot be the key.
 */
const activations = new Map<string, ActivationMemory>();

// The contexts already seen: a new one made for an activation by the user starts a new memory.
const seenContexts = new WeakSet<IPollFunctions>();

/**
 * When the activation of a poll that finds no memory of it took place. n8n polls at once as it activates, starts
 * (mode 'init') or republishes a workflow, with the activation's mode; n8n 2.41's scheduler makes a context of
 * its own for each scheduled poll, always with the mode 'update', and polls first at the schedule's next tick
 * where the activation's own poll did not run (its job already provisioned, or the activation on another main).
 * A first poll with the mode 'update' is therefore taken as a scheduled one, whose activation came after the
 * previous tick, `pollGapMs` before at most. The other modes, and a schedule without a known gap, date the
 * activation at this poll.
 */
function firstPollActivation(
	context: IPollFunctions,
	now: number,
	pollGapMs: number | undefined,
): number {
	const scheduled = context.getActivationMode() === 'update' && pollGapMs !== undefined;
	return scheduled ? now - pollGapMs : now;
}

function activationMemoryOf(
	context: IPollFunctions,
	now: number,
	pollGapMs: number | undefined,
): ActivationMemory {
	const node = context.getNode();
	const key = `${context.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
	const activatedNow = !seenContexts.has(context) && context.getActivationMode() === 'activate';
	seenContexts.add(context);
	let memory = activations.get(key);
	if (memory === undefined || activatedNow) {
		const activatedAt = memory === undefined ? firstPollActivation(context, now, pollGapMs) : now;
		// A poll of the earlier activation still running keeps the overlap guard.
		memory = { activatedAt, currentPoll: memory?.currentPoll };
		activations.set(key, memory);
	}
	return memory;
}

/** The trigger's state as one poll sees it: what to start from, and how to claim, keep and release it. */
export interface SavedStateHandle {
	/** The state to carry on from; undefined for a fresh baseline (just activated, or another credential). */
	previous: PollState | undefined;
	/**
	 * For a fresh baseline taken after the activation (a first poll that n8n made at the schedule's next tick, or a
	 * poll after an activation poll that left no state: under an hourly schedule the next poll comes an hour later):
	 * since when endings are news. Undefined when this poll is the activation's own first poll, or a poll of it has
	 * saved (another credential): what it lists as ended is then the baseline.
	 */
	activatedAt: number | undefined;
	/**
	 * For the activation's own poll when the user activated the workflow in a running n8n (mode 'activate'): since
	 * when endings are news. n8n 2.41 runs that poll in the background, up to ACTIVATION_POLL_DELAY_MS after the
	 * user's click, so what ended within that time before the poll is emitted rather than taken as the baseline.
	 */
	endedSince: number | undefined;
	/** Whether a poll of this activation ever saved a state (the first poll's failure is thrown instead of logged). */
	hasSaved: boolean;
	/** Whether this poll still owns the state (a later poll may have taken over a stuck one). */
	owns(): boolean;
	/** Writes the next state to static data and to the activation's memory; a failing streak ends. */
	save(state: PollState): void;
	/** Notes this poll's failure: since when polls fail in a row, and when that was last reported. */
	failed(now: number): { since: number; reportedAt?: number };
	/** The failure of this poll goes to n8n's error handling. */
	reported(now: number): void;
	release(): void;
}

/**
 * Claims the trigger's state for one poll; undefined while another poll of the same activation runs (two polls
 * over one state would emit the same endings twice), unless that one has run longer than `stuckPollMs`.
 * `pollGapMs` is the longest wait between two polls of the trigger's schedule (pollSchedule.ts), where known.
 */
export function claimSavedState(
	context: IPollFunctions,
	credential: string,
	now: number,
	stuckPollMs: number,
	pollGapMs?: number,
): SavedStateHandle | undefined {
	const memory = activationMemoryOf(context, now, pollGapMs);
	if (memory.currentPoll !== undefined && now - memory.currentPoll.startedAt < stuckPollMs)
		return undefined;
	const poll = { startedAt: now };
	memory.currentPoll = poll;
	const saved = context.getWorkflowStaticData('node') as SavedTriggerData;
	// Activated by the user: start from the jobs as they are now. After a restart or a republish: carry on.
	const activatedNow = context.getActivationMode() === 'activate' && memory.lastSaved === undefined;
	const last = memory.lastSaved ?? saved;
	// Another credential may mean another account: its jobs start from a fresh baseline too.
	const previous =
		!activatedNow && last.credential === credential ? readPollState(last.state) : undefined;
	return {
		previous,
		activatedAt:
			memory.lastSaved === undefined && memory.activatedAt < now ? memory.activatedAt : undefined,
		endedSince:
			activatedNow && memory.activatedAt === now ? now - ACTIVATION_POLL_DELAY_MS : undefined,
		hasSaved: memory.lastSaved !== undefined,
		owns: () => memory.currentPoll === poll,
		save(state) {
			saved.credential = credential;
			saved.state = state as unknown as IDataObject;
			memory.lastSaved = { credential, state: state as unknown as IDataObject };
			memory.failing = undefined;
		},
		failed(at) {
			memory.failing ??= { since: at };
			return { ...memory.failing };
		},
		reported(at) {
			if (memory.failing) memory.failing.reportedAt = at;
		},
		release() {
			if (memory.currentPoll === poll) memory.currentPoll = undefined;
		},
	};
}
