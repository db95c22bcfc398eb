import { createReadStream } from 'node:fs';

import type { FastifyReply, FastifyRequest } from 'fastify';

import type { FileToSend } from '../services/files';
import type { FileAccess } from '../services/signing';

/** A request for one upload through a signed URL: the API's and the account pages' file routes. */
export type UploadRequest = FastifyRequest<{
	Params: { upload: string };
	Querystring: { expires?: string; signature?: string };
}>;

/**
 * Neither query value is required: a URL without its signature is 403 like a wrong one, not 400. A query
 * outside the schema (a repeated `signature`) is attached rather than thrown, and is no signature either.
 */
export const uploadSchema = {
	params: {
		type: 'object',
		required: ['upload'],
		properties: { upload: { type: 'string' } },
	},
	querystring: {
		type: 'object',
		properties: { expires: { type: 'string' }, signature: { type: 'string' } },
	},
} as const;

/** The signature and expiry of the request, or none when its query broke the schema. */
export function signedQuery(request: UploadRequest): { expires?: string; signature?: string } {
	return request.validationError ? {} : request.query;
}

/** Streams a file a signed URL gave: downloads as attachments, previews inline; never cached. */
export function sendFile(reply: FastifyReply, file: FileToSend, access: FileAccess) {
	const download = access === 'download';
	return reply
		.header('Content-Type', download ? 'application/octet-stream' : file.mimeType)
		.header('Content-Length', String(file.size))
		.header(
			'Content-Disposition',
			contentDisposition(download ? 'attachment' : 'inline', file.name),
		)
		.header('Cache-Control', 'private, no-store')
		.send(createReadStream(file.path));
}

/** `filename` for old clients (ASCII only) and `filename*` with the exact UTF-8 name. */
function contentDisposition(disposition: string, name: string): string {
	const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
	return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
