import { createReadStream } from 'node:fs';

import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { FileToSend } from '../services/files';
import type { FileAccess } from '../services/signing';

/**
 * The two signed file routes of a scope, download (attachment) and preview (inline) of one upload, for
 * whoever `accountOf` says the request is: the API key's account under /api/v1, the signed-in one under
 * /account. Either way FileService checks signature, owner, expiry and lock the same way.
 */
export function signedFileRoutes(
	app: FastifyInstance,
	config: FastifyContextConfig,
	accountOf: (request: FastifyRequest) => string,
): void {
	const route = { schema: uploadSchema, attachValidation: true, config };
	const serve = (access: FileAccess) => async (request: UploadRequest, reply: FastifyReply) => {
		const { expires, signature } = request.validationError ? {} : request.query;
		const account = accountOf(request);
		const file = app.services.files.open(
			account,
			request.params.upload,
			access,
			expires,
			signature,
		);
		return sendFile(reply, file, access);
	};
	app.get('/uploads/:upload/download', route, serve('download'));
	app.get('/uploads/:upload/preview', route, serve('preview'));
}

type UploadRequest = FastifyRequest<{
	Params: { upload: string };
	Querystring: { expires?: string; signature?: string };
}>;

/**
 * Neither query value is required: a URL without its signature is 403 like a wrong one, not 400. A query
 * outside the schema (a repeated `signature`) is attached rather than thrown, and is no signature either.
 */
const uploadSchema = {
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

/** Streams a file a signed URL gave: downloads as attachments, previews inline; never cached. */
function sendFile(reply: FastifyReply, file: FileToSend, access: FileAccess) {
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
