import { createReadStream } from 'node:fs';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { artworkInputs } from '../../digitiser';
import { listFormats } from '../../engine';
import type { SandboxServices } from '../../services';
import type { FileAccess } from '../../services/signing';
import { authorise, callerOf } from '../auth';
import { readJobRequest, removeTemporaryFiles } from '../multipart';
import { Presenter } from '../present';
import type { RateLimiter } from '../rateLimits';

type JobParams = { workflow: string; id: string };
type UploadParams = { upload: string };
type SignedQuery = { expires?: string; signature?: string };

/** The spec's v1 routes, mounted under /api/v1. */
export function v1Routes(services: SandboxServices, limiter: RateLimiter) {
	const presenter = (request: FastifyRequest) =>
		new Presenter(services, `${request.protocol}://${request.host}/api/v1`);
	const guard = (
		ability: Parameters<typeof authorise>[2],
		extra?: Parameters<typeof authorise>[3],
	) => ({
		preHandler: authorise(services, limiter, ability, extra),
	});

	return async (app: FastifyInstance) => {
		app.get('/formats', guard('formats:read'), async () => ({
			data: listFormats().map(({ format, label, readable, writable, warning }) => ({
				format,
				label,
				readable,
				writable,
				warning,
			})),
			artworkInputs,
		}));

		app.get('/usage', guard('usage:read'), async (request) => ({
			freeUsage: services.accounts.freeUsage(callerOf(request).accountId),
		}));

		app.get('/jobs', guard('jobs:read'), async (request) => {
			const { accountId } = callerOf(request);
			const view = presenter(request);
			return {
				data: services.jobs.recent(accountId).map((details) => view.listItem(details)),
				freeUsage: view.freeUsage(accountId),
			};
		});

		app.post('/jobs', guard('jobs:write', 'jobCreation'), async (request, reply) => {
			const { accountId } = callerOf(request);
			const form = await readJobRequest(request, services.store);
			try {
				const jobs = await services.jobs.create(accountId, form);
				const view = presenter(request);
				const summaries = jobs.map((job) => view.summary(job));
				return reply.code(202).send({
					message: jobs.length === 1 ? 'Job accepted.' : `${jobs.length} jobs accepted.`,
					job: summaries[0],
					jobs: summaries,
					freeUsage: view.freeUsage(accountId),
				});
			} finally {
				await removeTemporaryFiles(form);
			}
		});

		app.get<{ Params: JobParams }>('/jobs/:workflow/:id', guard('jobs:read'), async (request) => {
			const { workflow, id } = checkWorkflow(request.params);
			const job = services.jobs.find(callerOf(request).accountId, workflow, id);
			return { job: presenter(request).job(services.jobs.details(job)) };
		});

		app.post<{ Params: JobParams }>(
			'/jobs/:workflow/:id/retry',
			guard('jobs:write'),
			async (request, reply) => {
				const { workflow, id } = checkWorkflow(request.params);
				const job = services.jobs.retry(callerOf(request).accountId, workflow, id);
				return reply
					.code(202)
					.send({ message: 'Job queued again.', job: presenter(request).summary(job) });
			},
		);

		app.post<{ Params: JobParams }>(
			'/jobs/:workflow/:id/unlock',
			guard('jobs:write', 'unlock'),
			async (request) => {
				const { workflow, id } = checkWorkflow(request.params);
				const { job, alreadyUnlocked } = services.jobs.unlock(
					callerOf(request).accountId,
					workflow,
					id,
				);
				return {
					message: alreadyUnlocked ? 'Downloads were already unlocked.' : 'Downloads unlocked.',
					job: presenter(request).job(services.jobs.details(job)),
				};
			},
		);

		const sendFile =
			(access: FileAccess) =>
			async (
				request: FastifyRequest<{ Params: UploadParams; Querystring: SignedQuery }>,
				reply: FastifyReply,
			) => {
				const file = services.files.open(
					callerOf(request).accountId,
					request.params.upload,
					access,
					request.query.expires,
					request.query.signature,
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
		app.get<{ Params: UploadParams; Querystring: SignedQuery }>(
			'/uploads/:upload/download',
			guard('jobs:read'),
			sendFile('download'),
		);
		app.get<{ Params: UploadParams; Querystring: SignedQuery }>(
			'/uploads/:upload/preview',
			guard('jobs:read'),
			sendFile('preview'),
		);
	};
}

/** Only the two workflow path segments exist; anything else is an unknown route. */
function checkWorkflow(params: JobParams): JobParams {
	if (params.workflow !== 'conversion' && params.workflow !== 'digitising') {
		throw Object.assign(new Error(`No route for workflow "${params.workflow}".`), {
			statusCode: 404,
		});
	}
	return params;
}

/** `filename` for old clients (ASCII only) and `filename*` with the exact UTF-8 name. */
function contentDisposition(disposition: string, name: string): string {
	const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
	return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
