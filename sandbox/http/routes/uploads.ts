import type { FastifyInstance } from 'fastify';

import { callerOf } from '../plugins/caller';
import { signedFileRoutes } from '../signedFiles';

/** The signed file URLs: download (attachment) and preview (inline) of one upload. */
export async function uploadRoutes(app: FastifyInstance): Promise<void> {
	signedFileRoutes(app, { ability: 'jobs:read' }, (request) => callerOf(request).accountId);
}
