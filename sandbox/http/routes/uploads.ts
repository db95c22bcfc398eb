import type { FastifyInstance, FastifyReply } from 'fastify';

import type { FileAccess } from '../../services/signing';
import { callerOf } from '../plugins/caller';
import { sendFile, signedQuery, uploadSchema, type UploadRequest } from '../signedFiles';

/** The signed file URLs: download (attachment) and preview (inline) of one upload. */
export async function uploadRoutes(app: FastifyInstance): Promise<void> {
	const route = {
		schema: uploadSchema,
		attachValidation: true,
		config: { ability: 'jobs:read' },
	} as const;
	const serve = (access: FileAccess) => async (request: UploadRequest, reply: FastifyReply) => {
		const { expires, signature } = signedQuery(request);
		const accountId = callerOf(request).accountId;
		const file = app.services.files.open(
			accountId,
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
