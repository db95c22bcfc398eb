/*
 * How a job is processed, from the request to the engine process:
 *
 * POST /api/v1/jobs     http/routes/jobs.ts; its config names ability jobs:write and the
 *                       jobCreation limit, which http/plugins/caller.ts enforces
 * readJobRequest        http/multipart.ts: each file streamed to tmp/, cut at its size limit
 * JobService.create     services/jobs.ts:
 *   checkJobRequest     services/jobRequest.ts: every 422 rule; checksum and content detection
 *                       in the inspection thread (workers/inspector.ts, workers/inspection.ts)
 *   allowance, processing control, then insertJobs in one transaction (status `queued`)
 * JobRunner.kick        below: claims queued jobs while an engine process is idle, accounts taking
 *                       turns (services/turns.ts)
 * WorkerPool.run        workers/pool.ts: a job per engine process; heap ceiling, timeout, crash -> failed
 * processJob            workers/processJob.ts, in the process: read or digitise, write, previews
 * JobRunner.record      below: outputs, status and event in one transaction; files of a result
 *                       that is not recorded (failed, timed out, stale) are removed
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

import { transaction } from '../storage/database';
import type { FileStore } from '../storage/fileStore';
import type { JobRow, JobsTable } from '../storage/jobs';
import type { UploadsTable } from '../storage/uploads';
import type { SandboxClock } from './clock';
import type { Faults } from './faults';
import { newId } from './ids';
import type { JobQueue } from './jobs';
import { AccountTurns } from './turns';
import { backgroundAfterCpuMs, type WorkerPool } from './workers/pool';
import type { JobTask, TaskResult, WrittenFile } from './workers/task';

/** Processing starts a job gets (counting restarts mid-run) before it is failed instead of re-queued. */
export const maxRunAttempts = 3;

/**
 * An account shares the engine while another account has had a job queued or processing within this long
 * (real time): a client that sends its next job once its last one is done is still there between the two.
 */
export const sharingWindowMs = 30_000;
/**
 * A long job gives way (workers/pool.ts) while another account has a job queued or processing, or had one
 * within this long: the gap between a client's jobs is no time for the long job to take the CPU back.
 */
export const giveWayWindowMs = 5_000;

export interface JobRunnerDependencies {
	db: DatabaseSync;
	jobs: JobsTable;
	uploads: UploadsTable;
	store: FileStore;
	pool: WorkerPool;
	clock: SandboxClock;
	faults: () => Faults;
	/** How long a completed job's output and previews are kept (their API access and their files). */
	outputRetentionSeconds: number;
	/** Where failures with no caller to answer go (the sandbox's log). */
	report: (error: unknown) => void;
}

/** Moves queued jobs through the worker pool and records what comes back. */
export class JobRunner implements JobQueue {
	/** The jobs being processed: their run, their account and when they started (performance.now()). */
	private readonly running = new Map<
		string,
		{ run: Promise<void>; accountId: string; startedAt: number }
	>();
	private readonly turns = new AccountTurns();
	/** When each account last had a job queued or processing (performance.now()). */
	private readonly lastActive = new Map<string, number>();
	private stopping = false;
	private readonly db: DatabaseSync;
	private readonly jobs: JobsTable;
	private readonly uploads: UploadsTable;
	private readonly store: FileStore;
	private readonly pool: WorkerPool;
	private readonly clock: SandboxClock;
	private readonly faults: () => Faults;
	private readonly report: (error: unknown) => void;
	private readonly outputRetentionSeconds: number;

	constructor(dependencies: JobRunnerDependencies) {
		({
			db: this.db,
			jobs: this.jobs,
			uploads: this.uploads,
			store: this.store,
			pool: this.pool,
			clock: this.clock,
			faults: this.faults,
			report: this.report,
			outputRetentionSeconds: this.outputRetentionSeconds,
		} = dependencies);
	}

	/** Jobs a previous run left `processing` are queued again, or failed once their attempts are spent. */
	recover(): void {
		const now = this.clock.now();
		for (const job of this.jobs.withStatus('processing')) {
			// Results half-recorded when the process stopped belong to no finished attempt.
			const removed = transaction(this.db, () => {
				const results = this.uploads.removeResults(job.id);
				if (job.run_attempts >= maxRunAttempts) {
					this.jobs.fail(
						job.id,
						now,
						'processing_interrupted',
						`Processing was interrupted ${job.run_attempts} times by sandbox restarts; retry the job to try again.`,
					);
					this.jobs.addEvent(job.id, 'failed', now, 'Interrupted by a restart too many times.');
				} else {
					this.jobs.requeue(job.id, false);
					this.jobs.addEvent(
						job.id,
						'requeued',
						now,
						'Processing was interrupted by a sandbox restart; queued again.',
					);
				}
				return results;
			});
			for (const upload of removed) this.store.remove(upload.path);
		}
		this.removeUnnamedFiles();
	}

	/**
	 * Files no upload record names: what an engine process killed by a stop had half-written. At
	 * start nothing is in flight, so every stored file should have its record.
	 */
	private removeUnnamedFiles(): void {
		const named = this.uploads.paths();
		for (const path of this.store.storedPaths()) if (!named.has(path)) this.store.remove(path);
	}

	/** Starts as many queued jobs as there are idle workers; never throws (failures go to `report`). */
	kick(): void {
		try {
			this.startQueued();
		} catch (error) {
			this.report(error);
		}
	}

	private startQueued(): void {
		this.noteActive(this.jobs.queuedHeads().map((head) => head.account_id));
		while (!this.stopping && !this.faults().processingPaused && this.pool.idle > 0) {
			// While another account uses the engine, one process always stays free of this one: an account
			// holds at most all but one. An account alone uses them all.
			const limit = (accountId: string) =>
				this.activeBesides(accountId, sharingWindowMs)
					? Math.max(1, this.pool.size - 1)
					: this.pool.size;
			const heads = this.jobs
				.queuedHeads()
				.filter((head) => this.processingCount(head.account_id) < limit(head.account_id));
			const job = this.turns.next(heads, (accountId) => this.processingCount(accountId));
			if (!job) return;
			const now = this.clock.now();
			const claimed = transaction(this.db, () => {
				if (!this.jobs.claim(job.id, now)) return false;
				this.jobs.addEvent(job.id, 'processing', now, `Attempt ${job.attempt_count + 1} started.`);
				return true;
			});
			if (!claimed) continue;
			this.turns.served(job.account_id);
			if (Math.random() < this.faults().engineFailureRate) {
				this.settle(job, null, {
					ok: false,
					failureCode: 'engine_error',
					failureReason: 'The engine failed (fault injected by the sandbox control API).',
					warnings: [],
				});
				continue;
			}
			const task = this.taskFor(job);
			if (Math.random() < this.faults().workerOutOfMemoryRate) task.exhaustMemory = true;
			// A job being processed holds the clock; the next queued job takes its hold before this one lets go.
			const release = this.clock.hold();
			const run = this.pool
				.run(task)
				.then((result) => this.settle(job, task, result))
				.finally(() => {
					this.running.delete(job.id);
					this.noteActive([job.account_id]);
					this.kick();
					release();
				});
			this.running.set(job.id, {
				run,
				accountId: job.account_id,
				startedAt: performance.now(),
			});
			// Other accounts' long jobs give way now, not at the pool's next look (up to 100 ms on).
			this.pool.check();
		}
	}

	/**
	 * An account's request for new jobs has arrived: it counts as work at once, so other accounts' long jobs
	 * give way while its upload is read and inspected, before its job exists.
	 */
	requestArrived(accountId: string): void {
		this.noteActive([accountId]);
		this.pool.check();
	}

	private noteActive(accountIds: Iterable<string>): void {
		const now = performance.now();
		for (const accountId of accountIds) this.lastActive.set(accountId, now);
		for (const [accountId, at] of this.lastActive)
			if (at < now - sharingWindowMs) this.lastActive.delete(accountId);
	}

	/**
	 * True while an account other than `accountId` has a job processing, or had one queued or processing
	 * within `windowMs`.
	 */
	private activeBesides(accountId: string, windowMs: number): boolean {
		for (const entry of this.running.values()) if (entry.accountId !== accountId) return true;
		const since = performance.now() - windowMs;
		for (const [other, at] of this.lastActive) {
			if (other !== accountId && at >= since) return true;
		}
		return false;
	}

	/** True while an account other than `accountId` has a short job processing (under `backgroundAfterCpuMs`). */
	othersWorking(accountId: string): boolean {
		for (const [jobId, entry] of this.running) {
			if (entry.accountId !== accountId && (this.pool.jobCpuMs(jobId) ?? 0) < backgroundAfterCpuMs)
				return true;
		}
		return false;
	}

	/**
	 * Whether running job `jobId` gives way to other accounts' work now (workers/pool.ts: once it is long). Work
	 * is another account's short job processing, or its job queued, request arrived or job ended within
	 * `giveWayWindowMs`. Another long job is not: two accounts' long jobs that gave way to each other both ran
	 * at nice 19, and beside a busy machine's other processes a conversion's first run (its first preview)
	 * took minutes there.
	 */
	givesWay(jobId: string): boolean {
		const entry = this.running.get(jobId);
		if (entry === undefined) return false;
		if (this.othersWorking(entry.accountId)) return true;
		const since = performance.now() - giveWayWindowMs;
		for (const [other, at] of this.lastActive) {
			if (other === entry.accountId || at < since) continue;
			// Activity its running jobs explain (their queueing, their request) is theirs: long, not waiting.
			let latestStart = -Infinity;
			for (const running of this.running.values())
				if (running.accountId === other) latestStart = Math.max(latestStart, running.startedAt);
			if (at > latestStart) return true;
		}
		return false;
	}

	/** Lets running jobs finish (up to `timeoutMs`) and starts no new ones. */
	async drain(timeoutMs: number): Promise<void> {
		this.stopping = true;
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
		await Promise.race([
			Promise.all([...this.running.values()].map((entry) => entry.run)),
			timeout,
		]);
		clearTimeout(timer);
	}

	/** Takes jobs again after a drain (the control API's reset). */
	resume(): void {
		this.stopping = false;
		this.turns.clear();
		this.lastActive.clear();
		this.kick();
	}

	private processingCount(accountId: string): number {
		let count = 0;
		for (const entry of this.running.values()) if (entry.accountId === accountId) count++;
		return count;
	}

	get activeCount(): number {
		return this.running.size;
	}

	private taskFor(job: JobRow): JobTask {
		const source = this.uploads.find(job.source_upload_id)!;
		const now = this.clock.now();
		return {
			jobId: job.id,
			workflow: job.workflow,
			sourcePath: this.store.absolute(source.path),
			sourceFileName: source.name,
			sourceFormat: job.source_format,
			format: job.format,
			outputDir: join(this.store.root, job.account_id),
			outputId: newId(now),
			previewId: newId(now),
			watermarkedPreviewId: newId(now),
			widthMm: job.width_mm,
			colourCount: job.colour_count,
			paletteKey: job.palette_key,
			maximumStitchCount: job.maximum_stitch_count,
		};
	}

	/**
	 * Records a result; when that fails (the database refused a write), the job is failed with
	 * `recording_failed`. Whatever the engine wrote for a result that is not recorded as completed
	 * (a failure, a timeout, a result gone stale, a refused write) is removed, so no file outlives its record.
	 */
	private settle(job: JobRow, task: JobTask | null, result: TaskResult): void {
		let completed = false;
		try {
			completed = this.record(job, result);
		} catch (error) {
			try {
				const reason = `The results could not be recorded: ${(error as Error).message}`;
				transaction(this.db, () => {
					const now = this.clock.now();
					this.jobs.fail(job.id, now, 'recording_failed', reason);
					this.jobs.addEvent(job.id, 'failed', now, `recording_failed: ${reason}`);
				});
			} catch (second) {
				// The database refuses even that: the next start's recover() queues the job again.
				this.report(second);
			}
		}
		if (!completed && task) this.removeWritten(task);
	}

	/** The files a task may have written (`<id>.<extension>` for its three ids), whole or partial. */
	private removeWritten(task: JobTask): void {
		const prefixes = [task.outputId, task.previewId, task.watermarkedPreviewId].map(
			(id) => `${id}.`,
		);
		try {
			for (const name of readdirSync(task.outputDir)) {
				if (prefixes.some((prefix) => name.startsWith(prefix)))
					rmSync(join(task.outputDir, name), { force: true });
			}
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.report(error);
		}
	}

	/**
	 * The job's outputs, status and event land in one transaction, or none of them does; true when
	 * the job was completed with the result's files.
	 */
	private record(job: JobRow, result: TaskResult): boolean {
		return transaction(this.db, () => {
			const current = this.jobs.find(job.id);
			// A reset or retry while the engine ran makes this result stale.
			if (current?.status !== 'processing') return false;
			const now = this.clock.now();
			if (!result.ok) {
				this.jobs.fail(job.id, now, result.failureCode, result.failureReason, result.warnings);
				this.jobs.addEvent(job.id, 'failed', now, `${result.failureCode}: ${result.failureReason}`);
				return false;
			}
			const base = job.title.replace(/\.[^.]*$/, '') || 'design';
			this.saveFile(job, result.output, 'output', `${base}.${result.output.extension}`, now);
			const previewName = `${base}-preview.${result.preview.extension}`;
			this.saveFile(job, result.preview, 'preview', previewName, now);
			this.saveFile(job, result.watermarkedPreview, 'preview_watermarked', previewName, now);
			this.jobs.complete(job.id, now, result.metrics, result.warnings);
			const size = result.metrics
				? ` (${result.metrics.widthMm} x ${result.metrics.heightMm} mm)`
				: '';
			this.jobs.addEvent(
				job.id,
				'completed',
				now,
				`Wrote ${base}.${result.output.extension}${size}.`,
			);
			return true;
		});
	}

	private saveFile(
		job: JobRow,
		file: WrittenFile,
		role: 'output' | 'preview' | 'preview_watermarked',
		name: string,
		now: number,
	): void {
		this.uploads.insert({
			id: file.id,
			account_id: job.account_id,
			job_id: job.id,
			role,
			name,
			extension: file.extension,
			mime_type: file.mimeType,
			size: file.size,
			checksum: file.checksum,
			path: `${job.account_id}/${file.fileName}`,
			expires_at: now + this.outputRetentionSeconds * 1000,
			created_at: now,
		});
	}
}
