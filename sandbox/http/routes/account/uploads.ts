import type { FastifyInstance } from 'fastify';

import { sessionOf } from '../../plugins/pageSession';
import { signedFileRoutes } from '../../signedFiles';

/**
 * The signed file URLs of the recent jobs page: the API's checks (signature, owner, expiry, lock) through
 * the same FileService, with the signed-in account in place of the API key's.
 */
export async function uploadPageRoutes(app: FastifyInstance): Promise<void> {
	signedFileRoutes(app, { page: 'signedIn' }, (request) => sessionOf(request).accountId);
}
