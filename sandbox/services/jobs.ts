import { renameSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

import { creditsText } from '../domain/billing';
import { listFormats } from '../engine';
import { transaction } from '../storage/database';
import type { FileStore } from '../storage/fileStore';
import type { JobEventRow, JobRow, JobsTable } from '../storage/jobs';
import type { UploadRow, UploadsTable } from '../storage/uploads';
import type { BillingService } from './billing';
import type { SandboxClock } from './clock';
import {
	ConflictError,
	ForbiddenError,
	NotFoundError,
	RateLimitedError,
	SourceExpiredError,
} from './errors';
import { expiredFileError, hasExpired } from './files';
import { isUlid, newId } from './ids';
import {
	checkJobRequest,
	type CheckedJobRequest,
	type CheckedSource,
	type JobRequest,
} from './jobRequest';
import type { Inspection, InspectionRequest } from './workers/inspection';

/** How a stored artwork source is named and served. */
const artworkFiles: Record<string, { extension: string; mimeType: string }> = {
	png: { extension: 'png', mimeType: 'image/png' },
	jpeg: { extension: 'jpg', mimeType: 'image/jpeg' },
	webp: { extension: 'webp', mimeType: 'image/webp' },
	svg: { extension: 'svg', mimeType: 'image/svg+xml' },
};

/** Processing control: queued plus processing jobs one account may have at once. */
export const maxActiveJobsPerAccount = 100;
export const jobsListSize = 50;

/** Everything a response needs to show one job. */
export interface JobDetails {
	job: JobRow;
	uploads: UploadRow[];
	events: JobEventRow[];
}

export interface JobQueue {
	kick(): void;
}

export interface JobServiceDependencies {
	db: DatabaseSync;
	jobs: JobsTable;
	uploads: UploadsTable;
	billing: BillingService;
	store: FileStore;
	clock: SandboxClock;
	queue: JobQueue;
	/** Checksum and content detection of a source for an account, off the HTTP event loop. */
	inspect: (request: InspectionRequest, accountId: string) => Promise<Inspection>;
	/** How long a source stays retryable and downloadable. */
	sourceTtlSeconds: number;
}

/** The client-facing job operations: create, inspect, list, retry and unlock. */
export class JobService {
	private readonly db: DatabaseSync;
	private readonly jobs: JobsTable;
	private readonly uploads: UploadsTable;
	private readonly billing: BillingService;
	private readonly store: FileStore;
	private readonly clock: SandboxClock;
	private readonly queue: JobQueue;
	private readonly inspect: (request: InspectionRequest, accountId: string) => Promise<Inspection>;
	private readonly sourceTtlSeconds: number;

	constructor(dependencies: JobServiceDependencies) {
		({
			db: this.db,
			jobs: this.jobs,
			uploads: this.uploads,
			billing: this.billing,
			store: this.store,
			clock: this.clock,
			queue: this.queue,
			inspect: this.inspect,
			sourceTtlSeconds: this.sourceTtlSeconds,
		} = dependencies);
	}

	/**
	 * Creates one queued job per source, or none at all: the request check (no storage), then the
	 * account's allowance and processing control, then every insert in one transaction.
	 */
	async create(
		accountId: string,
		request: JobRequest,
		/** Waits for the request's turn before each source is inspected (http/uploadTurns.ts). */
		turn: () => Promise<void> = async () => undefined,
	): Promise<JobRow[]> {
		const checked = await checkJobRequest(request, async (source) => {
			await turn();
			return this.inspect(source, accountId);
		});
		this.checkProcessing(accountId, checked.sources.length, checked.filesField);
		const stored: string[] = [];
		let created: JobRow[];
		try {
			created = transaction(this.db, () => this.insertJobs(accountId, checked, stored));
		} catch (error) {
			// The rows were rolled back; the sources already moved into the store go with them.
			for (const path of stored) this.store.remove(path);
			throw error;
		}
		this.queue.kick();
		return created;
	}

	/**
	 * The rules every request for processing meets, a creation's or a retry's: the account's allowance
	 * and processing control (at most `maxActiveJobsPerAccount` queued or processing).
	 */
	private checkProcessing(accountId: string, count: number, filesField: string): void {
		this.billing.checkAllowance(accountId, count, filesField);
		if (this.jobs.countActive(accountId) + count > maxActiveJobsPerAccount) {
			throw new RateLimitedError(
				5,
				`Too many jobs are waiting (at most ${maxActiveJobsPerAccount} queued or processing ` +
					`per account). Try again when some have finished.`,
			);
		}
	}

	/** Where the HTTP layer streams an incoming source file before the request is checked. */
	incomingSourcePath(): string {
		return this.store.temporaryPath();
	}

	/** An owned job of the given workflow: 404 when absent (or of the other workflow), 403 when another account's. */
	find(accountId: string, workflow: string, id: string): JobRow {
		const job = isUlid(id) ? this.jobs.find(id) : undefined;
		if (!job || job.workflow !== workflow) throw new NotFoundError(`No ${workflow} job ${id}.`);
		if (job.account_id !== accountId)
			throw new ForbiddenError('This job belongs to another account.');
		return job;
	}

	details(job: JobRow): JobDetails {
		return { job, uploads: this.uploads.forJob(job.id), events: this.jobs.events(job.id) };
	}

	recent(accountId: string): JobDetails[] {
		return this.jobs.recentForAccount(accountId, jobsListSize).map((job) => this.details(job));
	}

	/**
	 * Failed jobs only (409); 410 once the source has expired; then processing like a creation: the
	 * allowance and processing control apply (422, 429) and usage counts it. Back to queued with results cleared.
	 */
	retry(accountId: string, workflow: string, id: string): JobRow {
		const job = this.find(accountId, workflow, id);
		if (job.status !== 'failed') {
			throw new ConflictError(`Only failed jobs can be retried; this job is ${job.status}.`);
		}
		const source = this.uploads.find(job.source_upload_id);
		if (!source || (source.expires_at !== null && source.expires_at <= this.clock.now())) {
			throw new SourceExpiredError(
				'The source upload of this job has expired, so it cannot be retried. Create a new job.',
			);
		}
		this.checkProcessing(accountId, 1, 'job');
		const removed = transaction(this.db, () => {
			const results = this.uploads.removeResults(job.id);
			this.jobs.requeue(job.id, true);
			this.billing.recordJobs(accountId, [job.id]);
			this.jobs.addEvent(
				job.id,
				'retried',
				this.clock.now(),
				`Retry requested after ${job.failure_code ?? 'failure'}.`,
			);
			return results;
		});
		for (const upload of removed) this.store.remove(upload.path);
		const queued = this.jobs.find(job.id)!;
		this.queue.kick();
		return queued;
	}

	/** Completed jobs only (409); charged once; unlocking an unlocked job changes nothing. */
	unlock(
		accountId: string,
		workflow: string,
		id: string,
	): { job: JobRow; alreadyUnlocked: boolean } {
		const job = this.find(accountId, workflow, id);
		if (job.status !== 'completed') {
			throw new ConflictError(`Only completed jobs can be unlocked; this job is ${job.status}.`);
		}
		if (job.downloads_unlocked === 1) return { job, alreadyUnlocked: true };
		// Nothing is charged for files that are gone.
		const output = this.uploads.forJob(job.id).find((upload) => upload.role === 'output');
		if (output && hasExpired(output, this.clock.now())) throw expiredFileError(output);
		// A confirmed charge stays, whatever happens to the machine after the answer.
		transaction(
			this.db,
			() => {
				const charge = this.billing.chargeUnlock(accountId, job.workflow);
				const now = this.clock.now();
				this.jobs.unlock(job.id, now, charge.method, charge.credits);
				const how =
					charge.method === 'credits'
						? creditsText(charge.credits)
						: charge.method === 'subscription'
							? 'a subscription entitlement'
							: 'internal account, no charge';
				this.jobs.addEvent(job.id, 'unlocked', now, `Downloads unlocked (${how}).`);
			},
			{ durable: true },
		);
		return { job: this.jobs.find(job.id)!, alreadyUnlocked: false };
	}

	/** The persistence step: sources moved into the store, uploads, jobs, events and usage recorded. */
	private insertJobs(accountId: string, request: CheckedJobRequest, stored: string[]): JobRow[] {
		const { workflow, format, options } = request;
		const rows = request.sources.map((source) => {
			const now = this.clock.now();
			const jobId = newId(now);
			const upload = this.storeSource(accountId, jobId, source, now, stored);
			this.jobs.insert({
				id: jobId,
				account_id: accountId,
				workflow,
				format,
				source_format: source.inspection.kind,
				source_upload_id: upload.id,
				title: source.fileName,
				width_mm: options.widthMm,
				colour_count: options.colourCount,
				palette_key: options.paletteKey,
				maximum_stitch_count: options.maximumStitchCount,
				created_at: now,
			});
			this.jobs.addEvent(
				jobId,
				'created',
				now,
				`Queued ${workflow} of ${source.fileName} to ${format}.`,
			);
			return this.jobs.find(jobId)!;
		});
		this.billing.recordJobs(
			accountId,
			rows.map((row) => row.id),
		);
		return rows;
	}

	private storeSource(
		accountId: string,
		jobId: string,
		source: CheckedSource,
		now: number,
		/** Gets the store path of the moved file, for removal if the transaction fails. */
		stored: string[],
	): UploadRow {
		const { kind, checksum } = source.inspection;
		const id = newId(now);
		const info = listFormats().find((candidate) => candidate.format === kind) ?? artworkFiles[kind];
		const extension = info?.extension ?? kind;
		const path = this.store.relativePath(accountId, id, extension);
		renameSync(source.tempPath, this.store.absolute(path));
		stored.push(path);
		const upload: UploadRow = {
			id,
			account_id: accountId,
			job_id: jobId,
			role: 'source',
			name: source.fileName,
			extension,
			mime_type: info?.mimeType ?? 'application/octet-stream',
			size: source.size,
			checksum,
			path,
			expires_at: now + this.sourceTtlSeconds * 1000,
			created_at: now,
		};
		this.uploads.insert(upload);
		return upload;
	}
}
