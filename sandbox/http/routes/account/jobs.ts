import type { FastifyInstance } from 'fastify';

import { jobsPage } from '../../pages/jobsPage';
import { htmlType } from '../../pages/layout';
import { sessionOf } from '../../plugins/pageSession';
import { Presenter } from '../../present';

/** The recent jobs page: the jobs GET /jobs lists, presented like GET /jobs/{workflow}/{id}. */
export async function jobPageRoutes(app: FastifyInstance): Promise<void> {
	// Signed URLs point at the pages' own file routes, which check them exactly as the API does.
	const view = new Presenter(app.services, '/account');
	app.get('/jobs', { config: { page: 'signedIn' } }, async (request, reply) => {
		const { accountId, csrfToken } = sessionOf(request);
		const jobs = app.services.jobs.recent(accountId).map((details) => ({
			...view.job(details),
			title: details.job.title,
			workflow: details.job.workflow,
		}));
		return reply.type(htmlType).send(jobsPage(jobs, csrfToken));
	});
}
