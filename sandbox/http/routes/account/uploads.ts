import type { FastifyInstance, FastifyReply } from 'fastify';

import type { FileAccess } from '../../../services/signing';
import { sessionOf } from '../../plugins/pageSession';
import { sendFile, signedQuery, uploadSchema, type UploadRequest } from '../../signedFiles';

/**
 * The signed file URLs of the recent jobs page: the API's checks (signature, owner, expiry, lock) through
 * the same FileService, with the signed-in account in place of the API key's.
 */
export async function uploadPageRoutes(app: FastifyInstance): Promise<void> {
	const route = {
		schema: uploadSchema,
		attachValidation: true,
		config: { page: 'signedIn' },
	} as const;
	const serve = (access: FileAccess) => async (request: UploadRequest, reply: FastifyReply) => {
		const { expires, signature } = signedQuery(request);
		const { accountId } = sessionOf(request);
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
