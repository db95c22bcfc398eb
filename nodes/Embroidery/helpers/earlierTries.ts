import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { clock, jobKey } from '../transport';
import type { EmbroideryContext, JobRef } from '../transport';
import type { CreatedJob } from './knownJob';

/**
 * What earlier tries of a node did in one execution. n8n's Retry On Fail runs the node's execute() again, in the
 * same process and execution, with a fresh context (n8n-core's WorkflowExecute: the try loop around runNode, 2.41
 * and 1.123); this record, kept in memory by execution id, node and run index, lets the next try carry on with
 * the jobs the last one created and unlocked instead of creating or charging again. A worker that dies takes it
 * along: it lives in this process only.
 */

/** What a try sent for one source file of an item: the job it became, or a request whose answer was lost. */
export type SentSource =
	| { outcome: 'created'; job: CreatedJob }
	| { outcome: 'unknown'; reason: string };

interface ItemRecord {
	/** The item's parameters and input files, so a record is reused only for the same request. */
	identity: string;
	sources: Map<string, SentSource>;
	/** Every source of the item became a job: a retry sends nothing for it. */
	complete: boolean;
}

/** Unlocks of the execution by job: sent and answered, or sent with the answer lost (it may have charged). */
type UnlockOutcome = 'unlocked' | 'unknown';

/** A Job > Retry an earlier try sent: its answer, or the reason it never came (the job may be queued again). */
export type SentRetry =
	| { outcome: 'retried'; json: IDataObject }
	| { outcome: 'unknown'; reason: string };

interface ExecutionRecord {
	runningTries: number;
	lastUsedAt: number;
	/** The last try ended in an error that may fail the execution, which n8n's Retry can then run again. */
	failed: boolean;
	items: Map<string, ItemRecord>;
	unlocks: Map<string, UnlockOutcome>;
	/** Job > Retry by node run, item and job. */
	retries: Map<string, SentRetry>;
}

/**
 * How long a record outlives the last try that used it. n8n waits at most 5 s between tries (waitBetweenTries is
 * capped at 5000 ms), so a quarter of an hour is ample; a record in use by a running try is never dropped.
 */
export const keepAfterLastTryMs = 15 * 60_000;

/** How long the record of an execution whose node failed waits for n8n's Retry of that execution. */
export const keepFailedExecutionMs = 24 * 60 * 60_000;

const executions = new Map<string, ExecutionRecord>();

/**
 * Executions by where they began: n8n's Retry of a failed execution is a new execution (new id, mode "retry") that
 * keeps the failed one's execution context, established when it first ran (n8n-core's establishExecutionContext
 * leaves an existing one as it is; 2.41 and 1.123). Its node finds the jobs the failed one made through this.
 */
const executionsByOrigin = new Map<string, string>();

function dropStale(now: number): void {
	for (const [id, record] of executions) {
		const keepMs = record.failed ? keepFailedExecutionMs : keepAfterLastTryMs;
		if (record.runningTries === 0 && now - record.lastUsedAt > keepMs) executions.delete(id);
	}
	for (const [origin, id] of executionsByOrigin)
		if (!executions.has(id)) executionsByOrigin.delete(origin);
}

function ownExecutionIdOf(context: EmbroideryContext): string | undefined {
	const id =
		'getExecutionId' in context && typeof context.getExecutionId === 'function'
			? context.getExecutionId()
			: undefined;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Where the execution began: its workflow and the context n8n established then, which a Retry keeps. */
function originOf(context: EmbroideryContext): string | undefined {
	const established =
		'getExecutionContext' in context && typeof context.getExecutionContext === 'function'
			? context.getExecutionContext()
			: undefined;
	if (typeof established?.establishedAt !== 'number') return undefined;
	const { establishedAt, source } = established;
	return JSON.stringify([context.getWorkflow().id ?? '', establishedAt, source ?? '']);
}

/** The execution whose record a node uses: its own, or for n8n's Retry the failed execution it runs again. */
function executionIdOf(context: EmbroideryContext): string | undefined {
	const id = ownExecutionIdOf(context);
	if (id === undefined) return undefined;
	const origin = originOf(context);
	if (origin === undefined) return id;
	const first = executionsByOrigin.get(origin);
	const retry = 'getMode' in context && context.getMode?.() === 'retry';
	if (first !== undefined && retry && executions.has(first)) return first;
	if (first === undefined) executionsByOrigin.set(origin, id);
	return id;
}

/** The node's run in this execution: a node run again in a loop is a new run, a retry is the same run. */
function runOf(context: IExecuteFunctions): string {
	const node = context.getNode();
	let runIndex = 0;
	try {
		runIndex = Number(context.getWorkflowDataProxy(0).$runIndex) || 0;
	} catch {
		// A context without run data is the first run.
	}
	return `${node.id ?? node.name}\u0000${runIndex}`;
}

/**
 * Marks the start of one try of a node; `end` must follow in a finally, so the record can be dropped later, saying
 * whether the try ended in an error that may fail the execution.
 */
export function startTry(context: IExecuteFunctions): { end(failed: boolean): void } {
	dropStale(clock.now());
	const id = executionIdOf(context);
	if (id === undefined) return { end: () => undefined };
	const started = openRecord(id);
	started.runningTries++;
	return {
		end(failed) {
			started.runningTries--;
			started.lastUsedAt = clock.now();
			started.failed = failed;
			const empty =
				started.items.size === 0 && started.unlocks.size === 0 && started.retries.size === 0;
			if (started.runningTries === 0 && empty) executions.delete(id);
		},
	};
}

function recordOf(context: EmbroideryContext): ExecutionRecord | undefined {
	const id = executionIdOf(context);
	if (id === undefined) return undefined;
	// An operation called outside the router's try (none today) still gets the execution's record.
	const record = openRecord(id);
	record.lastUsedAt = clock.now();
	return record;
}

/** The execution's record, made on first use. */
function openRecord(id: string): ExecutionRecord {
	let record = executions.get(id);
	if (!record) {
		record = {
			runningTries: 0,
			lastUsedAt: clock.now(),
			failed: false,
			items: new Map(),
			unlocks: new Map(),
			retries: new Map(),
		};
		executions.set(id, record);
	}
	return record;
}

/**
 * A 4xx answer is the service refusing a request before it acted on it (no job made, nothing unlocked), so what
 * an earlier try sent and was refused may be sent again; any other outcome of a sent POST may have acted.
 */
export function refusedBeforeActing(error: unknown): boolean {
	return error instanceof NodeApiError && /^4\d\d$/.test(String(error.httpCode ?? ''));
}

/** One source file as a key: where it came from and what it is. */
export function sourceKey(source: {
	propertyName: string;
	fileName: string;
	bytes: number;
	sourceUrl?: string;
}): string {
	return JSON.stringify([source.sourceUrl ?? source.propertyName, source.fileName, source.bytes]);
}

/** What earlier tries of this node run sent for each item of Job > Create. */
export class EarlierCreations {
	constructor(
		private readonly record: ExecutionRecord | undefined,
		private readonly run: string,
	) {}

	private key(itemIndex: number): string {
		return `${this.run}\u0000${itemIndex}`;
	}

	/** What an earlier try sent for the item, when the item is the same request. */
	of(itemIndex: number, identity: string): ItemRecord | undefined {
		const item = this.record?.items.get(this.key(itemIndex));
		return item?.identity === identity ? item : undefined;
	}

	private item(itemIndex: number, identity: string): ItemRecord | undefined {
		if (!this.record) return undefined;
		const key = this.key(itemIndex);
		let item = this.record.items.get(key);
		if (item?.identity !== identity) {
			item = { identity, sources: new Map(), complete: false };
			this.record.items.set(key, item);
		}
		return item;
	}

	/** Before a request goes out: until its answer comes, the service may or may not have made the job. */
	sending(itemIndex: number, identity: string, key: string, reason: string): void {
		this.item(itemIndex, identity)?.sources.set(key, { outcome: 'unknown', reason });
	}

	created(
		itemIndex: number,
		identity: string,
		key: string,
		job: CreatedJob,
		sourceCount: number,
	): void {
		const item = this.item(itemIndex, identity);
		if (!item) return;
		item.sources.set(key, { outcome: 'created', job });
		item.complete =
			[...item.sources.values()].filter((sent) => sent.outcome === 'created').length >= sourceCount;
	}

	/** The answer was lost, or could not be paired: the job may exist, so the source is never sent again. */
	unknown(itemIndex: number, identity: string, key: string, reason: string): void {
		this.item(itemIndex, identity)?.sources.set(key, { outcome: 'unknown', reason });
	}

	/** The service refused the request before making anything (an HTTP 4xx): a retry may send it again. */
	refused(itemIndex: number, key: string): void {
		this.record?.items.get(this.key(itemIndex))?.sources.delete(key);
	}
}

export function earlierCreationsOf(context: IExecuteFunctions): EarlierCreations {
	return new EarlierCreations(recordOf(context), runOf(context));
}

/** What this execution knows of its own unlock of a job. */
export function earlierUnlockOf(
	context: EmbroideryContext,
	ref: JobRef,
): UnlockOutcome | undefined {
	return recordOf(context)?.unlocks.get(jobKey(ref));
}

export function recordUnlock(
	context: EmbroideryContext,
	ref: JobRef,
	outcome: UnlockOutcome | 'refused',
): void {
	const unlocks = recordOf(context)?.unlocks;
	if (!unlocks) return;
	if (outcome === 'refused') unlocks.delete(jobKey(ref));
	else unlocks.set(jobKey(ref), outcome);
}

/** What earlier tries of this node run sent as Job > Retry, by item and job. */
export class EarlierRetries {
	constructor(
		private readonly record: ExecutionRecord | undefined,
		private readonly run: string,
	) {}

	private key(itemIndex: number, ref: JobRef): string {
		return `${this.run}\u0000${itemIndex}\u0000${jobKey(ref)}`;
	}

	of(itemIndex: number, ref: JobRef): SentRetry | undefined {
		return this.record?.retries.get(this.key(itemIndex, ref));
	}

	/** Before the request goes out: until its answer comes, the service may have queued the job again. */
	sending(itemIndex: number, ref: JobRef): void {
		this.record?.retries.set(this.key(itemIndex, ref), {
			outcome: 'unknown',
			reason: 'the try ended before the answer came',
		});
	}

	retried(itemIndex: number, ref: JobRef, json: IDataObject): void {
		this.record?.retries.set(this.key(itemIndex, ref), { outcome: 'retried', json });
	}

	unknown(itemIndex: number, ref: JobRef, reason: string): void {
		this.record?.retries.set(this.key(itemIndex, ref), { outcome: 'unknown', reason });
	}

	/** Refused before the service acted (an HTTP 4xx, say the 409 of a job not failed): a later try may ask again. */
	refused(itemIndex: number, ref: JobRef): void {
		this.record?.retries.delete(this.key(itemIndex, ref));
	}
}

export function earlierRetriesOf(context: IExecuteFunctions): EarlierRetries {
	return new EarlierRetries(recordOf(context), runOf(context));
}

/** How many executions this process remembers now (tests check that records are dropped). */
export function rememberedExecutions(): number {
	return executions.size;
}
