import { renameSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

import { listFormats } from '../engine';
import { transaction } from '../storage/database';
import type { FileStore } from '../storage/fileStore';
import type { JobEventRow, JobRow, JobsTable, Workflow } from '../storage/jobs';
import type { UploadRow, UploadsTable } from '../storage/uploads';
import type { AccountService } from './accounts';
import type { SandboxClock } from './clock';
import {
	ConflictError,
	ForbiddenError,
	NotFoundError,
	RateLimitedError,
	SourceExpiredError,
	ValidationError,
} from './errors';
import { isUlid, newId } from './ids';
import { readDigitisingOptions } from './jobOptions';
import type { Inspection } from './workers/inspection';
import type { SourceInspector } from './workers/inspector';

export const workflows: Workflow[] = ['conversion', 'digitising'];

/** Per-file upload ceilings of the spec, in bytes. */
export const sourceSizeLimits: Record<Workflow, number> = {
	conversion: 50 * 1024 * 1024,
	digitising: 20 * 1024 * 1024,
};

/** How a stored artwork source is named and served. */
const artworkFiles: Record<string, { extension: string; mimeType: string }> = {
	png: { extension: 'png', mimeType: 'image/png' },
	jpeg: { extension: 'jpg', mimeType: 'image/jpeg' },
	webp: { extension: 'webp', mimeType: 'image/webp' },
	svg: { extension: 'svg', mimeType: 'image/svg+xml' },
};

export const maxFilesPerRequest = 10;
/** Processing control: queued plus processing jobs one account may have at once. */
export const maxActiveJobsPerAccount = 100;
export const jobsListSize = 50;

/** One uploaded file, already streamed to a temporary path by the HTTP layer. */
export interface IncomingSource {
	field: 'file' | 'files';
	fileName: string;
	tempPath: string;
	size: number;
	/** Set when streaming stopped at this many bytes because the file was too large. */
	truncatedAt?: number;
}

export interface JobRequest {
	fields: Record<string, string>;
	sources: IncomingSource[];
}

/** Everything a response needs to show one job. */
export interface JobDetails {
	job: JobRow;
	uploads: UploadRow[];
	events: JobEventRow[];
}

export interface JobQueue {
	kick(): void;
}

/** The client-facing job operations: create, inspect, list, retry and unlock. */
export class JobService {
	constructor(
		private readonly db: DatabaseSync,
		private readonly jobs: JobsTable,
		private readonly uploads: UploadsTable,
		private readonly accounts: AccountService,
		private readonly store: FileStore,
		private readonly clock: SandboxClock,
		private readonly queue: JobQueue,
		private readonly sourceTtlSeconds: number,
		private readonly inspector: SourceInspector,
	) {}

	/**
	 * Validates the whole request, then creates one queued job per source, or none at all.
	 * Sources are read without blocking; allowance check and inserts then run in one synchronous step.
	 */
	async create(accountId: string, request: JobRequest): Promise<JobRow[]> {
		const { fields, sources } = request;
		const errors: Record<string, string[]> = {};
		const add = (field: string, message: string) => (errors[field] ??= []).push(message);

		const workflow = fields.workflow as Workflow;
		if (fields.workflow === undefined || fields.workflow === '')
			add('workflow', 'The workflow field is required.');
		else if (!workflows.includes(workflow))
			add('workflow', 'The workflow must be "conversion" or "digitising".');

		const fieldsUsed = new Set(sources.map((source) => source.field));
		if (sources.length === 0)
			add('file', 'Send a source file as "file", or 1 to 10 files as "files[]".');
		if (fieldsUsed.size > 1) add('file', 'Send either "file" or "files[]", not both.');
		if (sources.filter((source) => source.field === 'file').length > 1) {
			add('file', 'The "file" field takes one file; send several as "files[]".');
		}
		if (sources.length > maxFilesPerRequest) {
			add('files', `At most ${maxFilesPerRequest} files per request; ${sources.length} were sent.`);
		}

		const inspections: Inspection[] = [];
		if (workflows.includes(workflow) && sources.length <= maxFilesPerRequest) {
			for (const source of sources) {
				const inspection = await this.inspectSource(workflow, source, (message) =>
					add(source.field, message),
				);
				if (inspection) inspections.push(inspection);
			}
		}
		const detected = inspections.map((inspection) => inspection.kind!);

		const format = (fields.format ?? '').trim().toLowerCase();
		const info = listFormats().find((candidate) => candidate.format === format);
		const writable = listFormats()
			.filter((candidate) => candidate.writable)
			.map((candidate) => candidate.format);
		if (!format) add('format', 'The format field is required.');
		else if (!info)
			add(
				'format',
				`The format "${fields.format}" is not supported. Writable formats: ${writable.join(', ')}.`,
			);
		else if (!info.writable)
			add(
				'format',
				`${info.label} can be read but not written. Writable formats: ${writable.join(', ')}.`,
			);
		else if (detected.includes(format)) {
			add(
				'format',
				`The output format must differ from the source format: the source is already ${info.label}.`,
			);
		}

		const options = readDigitisingOptions(fields, workflow === 'digitising', add);

		if (Object.keys(errors).length) throw new ValidationError(errors);

		const filesField = sources[0].field;
		this.accounts.checkAllowance(accountId, sources.length, filesField);
		if (this.jobs.countActive(accountId) + sources.length > maxActiveJobsPerAccount) {
			throw new RateLimitedError(
				5,
				`Too many jobs are waiting (at most ${maxActiveJobsPerAccount} queued or processing per account). Try again when some have finished.`,
			);
		}

		const created = transaction(this.db, () => {
			const rows: JobRow[] = [];
			sources.forEach((source, index) => {
				const now = this.clock.now();
				const jobId = newId(now);
				const upload = this.storeSource(accountId, jobId, source, inspections[index], now);
				this.jobs.insert({
					id: jobId,
					account_id: accountId,
					workflow,
					format,
					source_format: detected[index],
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
				rows.push(this.jobs.find(jobId)!);
			});
			this.accounts.recordJobs(
				accountId,
				rows.map((row) => row.id),
			);
			return rows;
		});
		this.queue.kick();
		return created;
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

	/** Failed jobs only (409); 410 once the source has expired; back to queued with results cleared. */
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
		const removed = transaction(this.db, () => {
			const results = this.uploads.removeResults(job.id);
			this.jobs.requeue(job.id, true);
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
		transaction(this.db, () => {
			const charge = this.accounts.chargeUnlock(accountId, job.workflow);
			const now = this.clock.now();
			this.jobs.unlock(job.id, now, charge.method, charge.credits);
			const how =
				charge.method === 'credits'
					? `${charge.credits} credit${charge.credits > 1 ? 's' : ''}`
					: charge.method === 'subscription'
						? 'a subscription entitlement'
						: 'internal account, no charge';
			this.jobs.addEvent(job.id, 'unlocked', now, `Downloads unlocked (${how}).`);
		});
		return { job: this.jobs.find(job.id)!, alreadyUnlocked: false };
	}

	/** Size checks here; checksum and content detection in the inspection thread, off the HTTP event loop. */
	private async inspectSource(
		workflow: Workflow,
		source: IncomingSource,
		fail: (message: string) => void,
	): Promise<Inspection | null> {
		const limit = sourceSizeLimits[workflow];
		if (source.truncatedAt !== undefined || source.size > limit) {
			fail(
				`${source.fileName} is larger than ${limit / 1024 / 1024} MB, the ${workflow} limit per file.`,
			);
			return null;
		}
		if (source.size === 0) {
			fail(`${source.fileName} is empty.`);
			return null;
		}
		let inspection: Inspection;
		try {
			inspection = await this.inspector.inspect({
				path: source.tempPath,
				workflow,
				fileName: source.fileName,
			});
		} catch (error) {
			fail(`${source.fileName} could not be inspected (${(error as Error).message}).`);
			return null;
		}
		if (inspection.kind) return inspection;
		fail(
			workflow === 'conversion'
				? `${source.fileName} is not a readable embroidery machine file (for example PES, DST or JEF).`
				: `${source.fileName} is not JPG, JPEG, PNG, SVG or WebP artwork.`,
		);
		return null;
	}

	private storeSource(
		accountId: string,
		jobId: string,
		source: IncomingSource,
		{ kind, checksum }: Inspection,
		now: number,
	): UploadRow {
		const id = newId(now);
		const info =
			listFormats().find((candidate) => candidate.format === kind) ?? artworkFiles[kind!];
		const extension = info?.extension ?? kind!;
		const path = this.store.relativePath(accountId, id, extension);
		renameSync(source.tempPath, this.store.absolute(path));
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
