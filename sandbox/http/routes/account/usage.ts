import type { FastifyInstance } from 'fastify';

import { htmlType } from '../../pages/layout';
import { usagePage } from '../../pages/usagePage';
import { sessionOf } from '../../plugins/pageSession';

/** The usage page: the account's FreeUsage from the same service call as GET /usage. */
export async function usagePageRoutes(app: FastifyInstance): Promise<void> {
	app.get('/usage', { config: { page: 'signedIn' } }, async (request, reply) => {
		const { accountId, csrfToken } = sessionOf(request);
		return reply
			.type(htmlType)
			.send(usagePage(app.services.billing.freeUsage(accountId), csrfToken));
	});
}
