import type { FastifyInstance } from 'fastify';

import { workflows, type Workflow } from '../../domain/jobs';
import { readJobRequest, removeTemporaryFiles } from '../multipart';
import { callerOf } from '../plugins/caller';
import { presenterFor } from '../present';
import { UploadTurns } from '../uploadTurns';
import type { JobRequest } from '../../services/jobRequest';

type JobParams = { workflow: Workflow; id: string };

/** Only the two workflow path segments exist; another one is answered 404 like an unknown route. */
const jobParams = {
	type: 'object',
	required: ['workflow', 'id'],
	properties: {
		workflow: { type: 'string', enum: workflows },
		id: { type: 'string' },
	},
} as const;

/** The job routes: create, list, show, retry and unlock. */
export async function jobRoutes(app: FastifyInstance): Promise<void> {
	const { jobs } = app.services;
	const uploadTurns = new UploadTurns((accountId) => app.services.runner.othersWorking(accountId));

	app.get('/jobs', { config: { ability: 'jobs:read' } }, async (request) => {
		const { accountId } = callerOf(request);
		const view = presenterFor(request);
		return {
			data: jobs.recent(accountId).map((details) => view.listItem(details)),
			freeUsage: view.freeUsage(accountId),
		};
	});

	app.post(
		'/jobs',
		{ config: { ability: 'jobs:write', rateLimit: 'jobCreation' } },
		async (request, reply) => {
			const { accountId } = callerOf(request);
			app.services.runner.requestArrived(accountId);
			const ticket = uploadTurns.begin(accountId);
			let form: JobRequest | undefined;
			try {
				form = await readJobRequest(request, () => jobs.incomingSourcePath(), ticket);
				// Inspecting a large request's sources gives way to other accounts' small requests and jobs too.
				const created = await jobs.create(accountId, form, () => ticket.streamed(0));
				const view = presenterFor(request);
				const summaries = created.map((job) => view.summary(job));
				return reply.code(202).send({
					message: created.length === 1 ? 'Job accepted.' : `${created.length} jobs accepted.`,
					job: summaries[0],
					jobs: summaries,
					freeUsage: view.freeUsage(accountId),
				});
			} finally {
				ticket.end();
				if (form) await removeTemporaryFiles(form);
			}
		},
	);

	app.get<{ Params: JobParams }>(
		'/jobs/:workflow/:id',
		{ schema: { params: jobParams }, config: { ability: 'jobs:read' } },
		async (request) => {
			const { workflow, id } = request.params;
			const job = jobs.find(callerOf(request).accountId, workflow, id);
			return { job: presenterFor(request).job(jobs.details(job)) };
		},
	);

	app.post<{ Params: JobParams }>(
		'/jobs/:workflow/:id/retry',
		{ schema: { params: jobParams }, config: { ability: 'jobs:write' } },
		async (request, reply) => {
			const { workflow, id } = request.params;
			const job = jobs.retry(callerOf(request).accountId, workflow, id);
			return reply
				.code(202)
				.send({ message: 'Job queued again.', job: presenterFor(request).summary(job) });
		},
	);

	app.post<{ Params: JobParams }>(
		'/jobs/:workflow/:id/unlock',
		{ schema: { params: jobParams }, config: { ability: 'jobs:write', rateLimit: 'unlock' } },
		async (request) => {
			const { workflow, id } = request.params;
			const { job, alreadyUnlocked } = jobs.unlock(callerOf(request).accountId, workflow, id);
			return {
				message: alreadyUnlocked ? 'Downloads were already unlocked.' : 'Downloads unlocked.',
				job: presenterFor(request).job(jobs.details(job)),
			};
		},
	);
}
