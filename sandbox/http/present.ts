import type { FastifyRequest } from 'fastify';

import type { FreeUsage } from '../services/billing';
import type { SandboxServices } from '../services';
import type { JobDetails } from '../services/jobs';

type JobRow = JobDetails['job'];
type UploadRow = JobDetails['uploads'][number];

/** A presenter whose signed URLs point back at the host and scheme the request came in on. */
export function presenterFor(request: FastifyRequest): Presenter {
	return new Presenter(request.server.services, `${request.protocol}://${request.host}/api/v1`);
}

/** Turns stored rows into the spec's resources, with complete signed URLs under `baseUrl`. */
export class Presenter {
	constructor(
		private readonly services: SandboxServices,
		private readonly baseUrl: string,
	) {}

	summary(job: JobRow) {
		return { id: job.id, status: job.status, workflow: job.workflow };
	}

	job(details: JobDetails) {
		const { job, events } = details;
		const { unlocked, source, output, preview, metrics } = this.partsOf(details);
		const widthMm =
			job.width_mm ?? (typeof metrics?.widthMm === 'number' ? metrics.widthMm : undefined);
		const colourCount =
			job.colour_count ??
			(typeof metrics?.colourCount === 'number' ? metrics.colourCount : undefined);
		return {
			id: job.id,
			status: job.status,
			provider: 'sandbox',
			formats: [job.format],
			...(widthMm === undefined ? {} : { widthMm }),
			...(colourCount === undefined ? {} : { colourCount }),
			attemptCount: job.attempt_count,
			metrics,
			warnings: JSON.parse(job.warnings) as string[],
			failureCode: job.failure_code,
			failureReason: job.failure_reason,
			downloadsUnlocked: unlocked,
			unlock: this.unlockState(job),
			...(source ? { source: this.file(source, preview) } : {}),
			outputs: output
				? [{ ...this.file(output, preview, !unlocked), format: job.format, locked: !unlocked }]
				: [],
			artifacts: preview
				? [{ ...this.file(preview, preview), kind: 'preview', watermarked: !unlocked }]
				: [],
			events: events.map((event) => ({
				type: event.type,
				at: new Date(event.at).toISOString(),
				message: event.message,
			})),
			createdAt: new Date(job.created_at).toISOString(),
			completedAt: job.completed_at === null ? null : new Date(job.completed_at).toISOString(),
		};
	}

	listItem(details: JobDetails) {
		const { job } = details;
		const { unlocked, source, output, preview, metrics } = this.partsOf(details);
		return {
			id: job.id,
			kind: job.workflow,
			title: job.title,
			status: job.status,
			formats: [job.format],
			...(source ? { source: this.file(source, preview) } : {}),
			preview: preview ? this.file(preview, preview) : null,
			output: output ? this.file(output, preview, !unlocked) : null,
			metrics,
			failureReason: job.failure_reason,
			downloadsUnlocked: unlocked,
		};
	}

	freeUsage(accountId: string): FreeUsage {
		return this.services.billing.freeUsage(accountId);
	}

	/** What both views of a job show: its files as the caller may see them now, and its metrics. */
	private partsOf({ job, uploads }: JobDetails) {
		const unlocked = job.downloads_unlocked === 1;
		return {
			unlocked,
			source: uploads.find((upload) => upload.id === job.source_upload_id),
			output: uploads.find((upload) => upload.role === 'output'),
			preview: this.previewFor(uploads, unlocked),
			metrics: job.metrics === null ? null : (JSON.parse(job.metrics) as Record<string, unknown>),
		};
	}

	/** A PrivateFile; `previewUrl` points at the job's preview through this file's own id. */
	private file(upload: UploadRow, preview: UploadRow | undefined, locked = false) {
		const files = this.services.files;
		return {
			id: upload.id,
			name: upload.name,
			extension: upload.extension,
			mimeType: upload.mime_type,
			size: upload.size,
			checksum: upload.checksum,
			...(upload.expires_at === null
				? {}
				: { expiresAt: new Date(upload.expires_at).toISOString() }),
			downloadUrl: locked ? null : this.baseUrl + files.signedPath(upload, 'download'),
			previewUrl: preview ? this.baseUrl + files.signedPath(upload, 'preview') : null,
		};
	}

	/** The preview a client may see now: the watermarked variant until the job is unlocked. */
	private previewFor(uploads: UploadRow[], unlocked: boolean): UploadRow | undefined {
		return uploads.find((upload) => upload.role === (unlocked ? 'preview' : 'preview_watermarked'));
	}

	private unlockState(job: JobRow) {
		const unlocked = job.downloads_unlocked === 1;
		if (unlocked) {
			return {
				unlocked: true,
				canUnlock: false,
				method: job.unlock_method,
				creditCost: job.unlock_credits ?? 0,
				unlockedAt: job.unlocked_at === null ? null : new Date(job.unlocked_at).toISOString(),
			};
		}
		const quote = this.services.billing.unlockQuote(job.account_id, job.workflow);
		return {
			unlocked: false,
			canUnlock: job.status === 'completed' && quote.method !== null,
			method: quote.method,
			creditCost: quote.credits,
			creditBalance: quote.creditBalance,
			unlockedAt: null,
		};
	}
}
