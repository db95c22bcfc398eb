import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';

import type { FastifyInstance, FastifyRequest } from 'fastify';

import { ApiError, ValidationError } from '../services/errors';
import {
	maxFilesPerRequest,
	sourceSizeLimits,
	type IncomingSource,
	type JobRequest,
} from '../services/jobRequest';
import type { UploadTicket } from './uploadTurns';

/** The multipart parser's own ceiling; the per-workflow limits are applied while streaming below. */
export const multipartLimits = {
	fileSize: sourceSizeLimits.conversion + 1,
	files: maxFilesPerRequest + 10,
	fields: 20,
	fieldSize: 1024,
	parts: maxFilesPerRequest + 40,
};

/** The largest multipart body a job request can need: every file at the conversion limit, plus the fields. */
export const maxMultipartBytes = maxFilesPerRequest * sourceSizeLimits.conversion + 1024 * 1024;

/**
 * Multipart bodies are read by the route itself (after authentication), so fastify's bodyLimit does not
 * cover them: one announcing more than any job request can need is refused at once, before a byte is read.
 */
export function refuseOversizedMultipart(app: FastifyInstance): void {
	app.addHook('onRequest', async (request) => {
		const length = Number(request.headers['content-length'] ?? 0);
		if (length > maxMultipartBytes && isMultipart(request)) {
			throw Object.assign(
				new Error(
					`The request body is ${length} bytes; a job request takes at ` +
						`most ${maxFilesPerRequest} files of ${sourceSizeLimits.conversion / 1024 / 1024} MB.`,
				),
				{ statusCode: 413 },
			);
		}
	});
}

/**
 * A request refused before its body was read (a field over its limit, a wrong key, a key past its rate limit)
 * is answered once the rest of the body has arrived, read and dropped. Answered at once, the server would close
 * the connection under a client still sending, and most clients then report the write that failed ("EPIPE",
 * "other side closed") instead of the answer that says what to fix or how long to wait. How much is read: for
 * the job form of a caller whose key was accepted (refused or not for its limits or abilities), up to the
 * largest job request (what a valid one costs anyway); for anyone else, up to `bodyLimit`. A body
 * announced over that is answered at once and not read (an unauthenticated client cannot make the server read
 * a large upload).
 */
export function answerAfterTheBody(app: FastifyInstance, bodyLimit: number): void {
	app.addHook('onSend', async (request, _reply, payload) => {
		const limit = request.caller && isMultipart(request) ? maxMultipartBytes : bodyLimit;
		await readRestOfBody(request, limit);
		return payload;
	});
}

function isMultipart(request: FastifyRequest): boolean {
	return /^multipart\//i.test(request.headers['content-type'] ?? '');
}

async function readRestOfBody(request: FastifyRequest, limit: number): Promise<void> {
	const raw = request.raw;
	if (raw.complete || raw.destroyed || raw.readableEnded) return;
	if (Number(request.headers['content-length'] ?? 0) > limit) return;
	// The multipart parser the route left off reading gets nothing more.
	raw.unpipe();
	await new Promise<void>((resolve) => {
		let read = 0;
		const done = () => {
			raw.off('data', onData);
			raw.off('end', done);
			raw.off('error', done);
			raw.off('close', done);
			resolve();
		};
		const onData = (chunk: Buffer) => {
			read += chunk.length;
			// Past what the request could carry: answered now, and the connection closes after the answer.
			if (read > limit) {
				raw.pause();
				done();
			}
		};
		raw.on('data', onData);
		raw.once('end', done);
		raw.once('error', done);
		raw.once('close', done);
		raw.resume();
	});
}

/**
 * Streams a job-creation form to temporary files: nothing is buffered whole, and a file is
 * cut off (and its bytes discarded) the moment it passes its workflow's size limit.
 */
export async function readJobRequest(
	request: FastifyRequest,
	/** A fresh path for the next incoming file. */
	temporaryPath: () => string,
	/** The request's place in the accounts' turns for reading bodies (http/uploadTurns.ts). */
	ticket: UploadTicket,
): Promise<JobRequest> {
	if (!request.isMultipart()) {
		throw new ValidationError({
			file: [
				'Send the job as multipart/form-data with a "file" (or "files[]") part and the workflow and format fields.',
			],
		});
	}
	const fields: Record<string, string> = {};
	const sources: IncomingSource[] = [];
	try {
		for await (const part of request.parts()) {
			if (part.type === 'field') {
				if (part.valueTruncated) {
					throw new ValidationError({
						[part.fieldname]: [
							`The ${part.fieldname} field is longer than ${multipartLimits.fieldSize} bytes.`,
						],
					});
				}
				fields[part.fieldname] = String(part.value);
				continue;
			}
			const field = sourceField(part.fieldname);
			if (!field) {
				part.file.resume();
				throw new ValidationError({
					[part.fieldname]: [
						`Unexpected file field "${part.fieldname}"; send sources as "file" or "files[]".`,
					],
				});
			}
			const limit =
				fields.workflow === 'digitising'
					? sourceSizeLimits.digitising
					: sourceSizeLimits.conversion;
			const fileName = cleanFileName(part.filename);
			if (sources.length >= maxFilesPerRequest) {
				// Past the file limit only the count matters; the bytes go nowhere.
				await discard(part.file, ticket);
				sources.push({ field, fileName, tempPath: '', size: 0 });
				continue;
			}
			const tempPath = temporaryPath();
			sources.push(await streamToDisk(part.file, { tempPath, field, fileName }, limit, ticket));
		}
	} catch (error) {
		await removeTemporaryFiles({ fields, sources });
		if (error instanceof UploadNotStoredError) {
			request.log.error({ err: error.cause }, 'an upload could not be stored');
			throw new ApiError(503, error.message);
		}
		if (error instanceof ValidationError) throw error;
		throw new ValidationError({
			file: [`The multipart body could not be read: ${(error as Error).message}`],
		});
	}
	return { fields, sources };
}

export async function removeTemporaryFiles(request: JobRequest): Promise<void> {
	await Promise.all(
		request.sources
			.filter((source) => source.tempPath)
			.map((source) => rm(source.tempPath, { force: true })),
	);
}

function sourceField(name: string): IncomingSource['field'] | null {
	if (name === 'file') return 'file';
	if (name === 'files' || /^files\[\d*\]$/.test(name)) return 'files';
	return null;
}

/** Only the base name of what the client sent, never a path. */
function cleanFileName(name: string | undefined): string {
	const base = (name ?? '')
		.split(/[\\/]/)
		.pop()
		?.replace(/[\x00-\x1f]/g, '')
		.trim();
	return base ? cutName(base) : 'upload';
}

const longestFileName = 200;

/** A name over the limit loses the end of its stem, never its extension: that says which format a file is. */
function cutName(base: string): string {
	if (base.length <= longestFileName) return base;
	const dot = base.lastIndexOf('.');
	const extension = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
	return base.slice(0, longestFileName - extension.length) + extension;
}

/**
 * The sandbox's own disk refused an upload's bytes (full, over quota, read-only): the service's failure, which a
 * 503 reports, not the request's (a 422 would send the user looking for a fault in the file).
 */
class UploadNotStoredError extends Error {
	constructor(cause: unknown) {
		const code = (cause as NodeJS.ErrnoException).code;
		const disk =
			code === 'ENOSPC'
				? 'no space is left on its disk'
				: code === 'EDQUOT'
					? 'its disk quota is used up'
					: `its disk answered ${code ?? 'an error'}`;
		super(
			`The service could not store the uploaded file: ${disk}. No job was created and nothing was charged; ` +
				'send the job again later.',
			{ cause },
		);
	}
}

/** What the sandbox's own disk does with an upload's bytes, its failures told apart from the client's. */
async function stored<T>(write: Promise<T>): Promise<T> {
	try {
		return await write;
	} catch (error) {
		throw new UploadNotStoredError(error);
	}
}

async function streamToDisk(
	stream: Readable,
	{ tempPath, field, fileName }: Pick<IncomingSource, 'tempPath' | 'field' | 'fileName'>,
	limit: number,
	ticket: UploadTicket,
): Promise<IncomingSource> {
	const handle = await stored(open(tempPath, 'w'));
	let size = 0;
	let truncatedAt: number | undefined;
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			if (truncatedAt !== undefined) continue;
			if (size + chunk.length > limit) {
				truncatedAt = limit;
				continue;
			}
			size += chunk.length;
			await stored(handle.write(chunk));
			await ticket.streamed(chunk.length);
		}
	} catch (error) {
		// A connection dropped mid-file, or the disk refused it: the partial file belongs to no job.
		await handle.close();
		await rm(tempPath, { force: true });
		throw error;
	}
	// A disk may report a write it could not keep only when the file is closed.
	await stored(handle.close()).catch(async (error: unknown) => {
		await rm(tempPath, { force: true });
		throw error;
	});
	if ((stream as Readable & { truncated?: boolean }).truncated) truncatedAt = limit;
	if (truncatedAt !== undefined) {
		await rm(tempPath, { force: true });
		return { field, fileName, tempPath: '', size, truncatedAt };
	}
	return { field, fileName, tempPath, size };
}

async function discard(stream: Readable, ticket: UploadTicket): Promise<void> {
	for await (const chunk of stream as AsyncIterable<Buffer>) await ticket.streamed(chunk.length);
}
