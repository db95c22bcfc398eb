import { createReadStream } from 'node:fs';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { FileAccess } from '../../services/signing';
import { callerOf } from '../plugins/caller';

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

/** The signed file URLs: download (attachment) and preview (inline) of one upload. */
export async function uploadRoutes(app: FastifyInstance): Promise<void> {
	const sendFile = (access: FileAccess) => async (request: UploadRequest, reply: FastifyReply) => {
		const query = request.validationError ? {} : request.query;
		const file = app.services.files.open(
			callerOf(request).accountId,
			request.params.upload,
			access,
			query.expires,
			query.signature,
		);
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
	};
	const route = {
		schema: uploadSchema,
		attachValidation: true,
		config: { ability: 'jobs:read' },
	} as const;
	app.get('/uploads/:upload/download', route, sendFile('download'));
	app.get('/uploads/:upload/preview', route, sendFile('preview'));
}

/** `filename` for old clients (ASCII only) and `filename*` with the exact UTF-8 name. */
function contentDisposition(disposition: string, name: string): string {
	const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
	return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
