import type { JobsTable } from '../storage/jobs';
import type { UploadRow, UploadsTable } from '../storage/uploads';
import type { FileStore } from '../storage/fileStore';
import type { SandboxClock } from './clock';
import { ForbiddenError, NotFoundError, SourceExpiredError } from './errors';
import type { FileAccess, UrlSigner } from './signing';

/** True once the upload's time is up: its API access ends (410) and the sweeper deletes its file. */
export function hasExpired(upload: UploadRow, now: number): boolean {
	return upload.expires_at !== null && upload.expires_at <= now;
}

/** 410 for an expired upload, saying what to do instead. */
export function expiredFileError(upload: UploadRow): SourceExpiredError {
	if (upload.role === 'source') return new SourceExpiredError();
	return new SourceExpiredError(
		"This job's machine file and previews were kept for their retention time and have been " +
			'deleted. Create the job again.',
	);
}

/** A stored file ready to stream. */
export interface FileToSend {
	path: string;
	name: string;
	mimeType: string;
	size: number;
}

export interface FileServiceDependencies {
	uploads: UploadsTable;
	jobs: JobsTable;
	store: FileStore;
	signer: UrlSigner;
	clock: SandboxClock;
	/** Lifetime of a signed URL. */
	urlTtlSeconds: number;
}

/** Signed private file URLs: issuing them, and checking every access against owner, lock and expiry. */
export class FileService {
	private readonly uploads: UploadsTable;
	private readonly jobs: JobsTable;
	private readonly store: FileStore;
	private readonly signer: UrlSigner;
	private readonly clock: SandboxClock;
	private readonly urlTtlSeconds: number;

	constructor(dependencies: FileServiceDependencies) {
		({
			uploads: this.uploads,
			jobs: this.jobs,
			store: this.store,
			signer: this.signer,
			clock: this.clock,
			urlTtlSeconds: this.urlTtlSeconds,
		} = dependencies);
	}

	/** Path and query of a fresh signed URL, relative to the v1 base. */
	signedPath(upload: UploadRow, access: FileAccess): string {
		const expires = Math.floor(this.clock.now() / 1000) + this.urlTtlSeconds;
		const signature = this.signer.sign(upload.id, upload.account_id, access, expires);
		return `/uploads/${encodeURIComponent(upload.id)}/${access}?expires=${expires}&signature=${signature}`;
	}

	/** The file a signed URL gives this account, after every check the spec asks for. */
	open(
		accountId: string,
		uploadId: string,
		access: FileAccess,
		expires: unknown,
		signature: unknown,
	): FileToSend {
		const upload = this.uploads.find(uploadId);
		if (!upload) throw new NotFoundError('File not found.');
		const expiresAt =
			typeof expires === 'string' && /^\d{1,12}$/.test(expires) ? Number(expires) : NaN;
		if (
			typeof signature !== 'string' ||
			Number.isNaN(expiresAt) ||
			!this.signer.verify(upload.id, upload.account_id, access, expiresAt, signature)
		) {
			throw new ForbiddenError(
				'Invalid signature. Use the complete signed URL from the job response, unchanged.',
			);
		}
		if (upload.account_id !== accountId)
			throw new ForbiddenError('This file belongs to another account.');
		if (expiresAt * 1000 <= this.clock.now()) {
			throw new ForbiddenError('The signed URL has expired. Fetch the job again for fresh URLs.');
		}
		if (hasExpired(upload, this.clock.now())) throw expiredFileError(upload);
		const job = upload.job_id ? this.jobs.find(upload.job_id) : undefined;
		if (
			access === 'preview' ||
			upload.role === 'preview' ||
			upload.role === 'preview_watermarked'
		) {
			return this.preview(upload, job?.downloads_unlocked === 1);
		}
		if (upload.role === 'output' && job?.downloads_unlocked !== 1) {
			throw new ForbiddenError('The machine file is locked. Unlock the job to download it.');
		}
		return this.describe(upload);
	}

	/** The job's stitch preview: watermarked while locked, original once unlocked. */
	private preview(upload: UploadRow, unlocked: boolean): FileToSend {
		const role = unlocked ? 'preview' : 'preview_watermarked';
		const variant = upload.job_id
			? this.uploads.forJob(upload.job_id).find((row) => row.role === role)
			: undefined;
		if (!variant)
			throw new NotFoundError('This job has no preview yet; previews appear when it completes.');
		if (hasExpired(variant, this.clock.now())) throw expiredFileError(variant);
		return this.describe(variant);
	}

	private describe(upload: UploadRow): FileToSend {
		return {
			path: this.store.absolute(upload.path),
			name: upload.name,
			mimeType: upload.mime_type,
			size: upload.size,
		};
	}
}
