/**
 * Every operation module names the routes it sends requests to (`routesCalled`). Each real operation of the
 * resource table runs here once in n8n-core against the sandbox, behind the variant service that records what
 * reaches it, and every request it sent must be on a route its module declares.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { resources } from '../../../../nodes/Embroidery/actions/versionDescription';
import { routes } from '../../../../nodes/Embroidery/transport/routes';
import type { JobRef } from '../../../../nodes/Embroidery/transport/jobIds';
import type { Route } from '../../../../nodes/Embroidery/transport/routes';
import { createAndWait } from '../../../support/jobParameters';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import { runNode } from '../../../support/nodeRun';
import type { InputItem } from '../../../support/nodeRun';
import { useSandbox, useVariantService } from '../../../support/sandboxFixture';
import type { SeenRequest, VariantService } from '../../../support/variantService';
import { embroideryItem, itemsOf } from '../../support/nodeItems';

type RouteName = keyof typeof routes;
type Table = typeof resources;

/** What a run of one operation needs: the jobs and the signed link the earlier runs made. */
interface Made {
	credentials: ApiCredentials;
	/** Completed: for Wait for Completion (which unlocks it), then Download. */
	completed: JobRef;
	/** Completed and locked: for Unlock. */
	locked: JobRef;
	/** Failed: for Retry. */
	failed: JobRef;
	/** A signed URL the service gave for the completed job's preview: for File > Download. */
	previewUrl: string;
	/** Makes another completed job: for an operation of the table without a run of its own below. */
	anotherJob(): Promise<JobRef>;
}

type Run = (made: Made) => Promise<unknown>;

const jobItem = (ref: JobRef): InputItem => ({ json: { id: ref.id, workflow: ref.workflow } });

/** Runs the node once with these parameters (resource and operation among them) on the items `input` gives. */
const runOf =
	(parameters: INodeParameters, input: (made: Made) => InputItem[]): Run =>
	async (made) =>
		itemsOf(await runNode({ credentials: made.credentials, parameters, input: input(made) }));

/**
 * The runs of operations that need more than their resource and operation on an item naming a completed job
 * made for them alone: an operation added to the table runs that way unless it has an entry here.
 */
const runs: { [R in keyof Table]?: { [O in keyof Table[R]['operations']]?: Run } } = {
	job: {
		create: runOf(
			createAndWait({
				format: 'exp',
				downloadResults: ['outputs', 'preview'],
				unlockBeforeDownload: true,
			}),
			() => [embroideryItem('Star.pes')],
		),
		download: runOf(
			{ resource: 'job', operation: 'download', files: ['outputs', 'preview', 'source'] },
			(made) => [jobItem(made.completed)],
		),
		getMany: runOf({ resource: 'job', operation: 'getMany', returnAll: true }, () => [{}]),
		retry: runOf({ resource: 'job', operation: 'retry' }, (made) => [jobItem(made.failed)]),
		unlock: runOf({ resource: 'job', operation: 'unlock' }, (made) => [jobItem(made.locked)]),
		waitForCompletion: runOf(
			{
				resource: 'job',
				operation: 'waitForCompletion',
				downloadResults: ['outputs', 'preview'],
				unlockBeforeDownload: true,
			},
			(made) => [jobItem(made.completed)],
		),
	},
	format: { getMany: runOf({ resource: 'format', operation: 'getMany' }, () => [{}]) },
	account: { getUsage: runOf({ resource: 'account', operation: 'getUsage' }, () => [{}]) },
	file: {
		download: runOf(
			{
				resource: 'file',
				operation: 'download',
				url: '={{ $json.url }}',
				binaryPropertyName: 'data',
			},
			(made) => [{ json: { url: made.previewUrl } }],
		),
	},
};

/** The API routes by what they are; a signed file link is any GET of the sandbox's signed file URLs. */
function routeNameOf(request: SeenRequest, variant: VariantService): RouteName | undefined {
	const path = new URL(request.url, variant.origin).pathname;
	const apiPath = new URL(variant.baseUrl).pathname;
	const ref = /\/jobs\/(conversion|digitising)\/([^/]+)/.exec(path);
	const job = ref ? ({ workflow: ref[1], id: decodeURIComponent(ref[2]) } as JobRef) : undefined;
	// Every route of the table: one without parameters as it is, one of a job for the job in the path.
	const candidates = (Object.entries(routes) as Array<[RouteName, (job: JobRef) => Route]>)
		.filter(([name, build]) => name !== 'signedFile' && (build.length === 0 || job))
		.map(([name, build]): [RouteName, Route] => [name, build(job!)]);
	const api = candidates.find(
		([, route]) => route.method === request.method && `${apiPath}${route.path}` === path,
	);
	if (api) return api[0];
	if (request.method === 'GET' && path.startsWith(`${apiPath}/uploads/`)) return 'signedFile';
	return undefined;
}

describe("each operation sends requests only on the routes its module declares in 'routesCalled'", () => {
	const { sandbox, admin } = useSandbox();
	const variant = useVariantService(sandbox);

	async function createdJob(credentials: ApiCredentials): Promise<IDataObject> {
		const [item] = itemsOf(
			await runNode({
				credentials,
				parameters: createAndWait({ format: 'exp', downloadResults: [], includeFullJob: true }),
				input: [embroideryItem('Star.pes')],
			}),
		);
		return item.json;
	}

	test('every operation of the table, run once against the sandbox', async () => {
		const { key } = await admin.createAccountWithKey({ plan: 'credits', creditBalance: 100 });
		const credentials = { apiKey: key, baseUrl: variant.baseUrl };
		const completedJob = await createdJob(credentials);
		const lockedJob = await createdJob(credentials);
		await admin.setFaults({ engineFailureRate: 1 });
		const failedJob = await createdJob(credentials).finally(() =>
			admin.setFaults({ engineFailureRate: 0 }),
		);
		expect([completedJob.status, failedJob.status]).toEqual(['completed', 'failed']);
		const artifacts = completedJob.artifacts as Array<{ previewUrl: string }>;
		const made: Made = {
			credentials,
			anotherJob: async () => ({
				id: String((await createdJob(credentials)).id),
				workflow: 'conversion',
			}),
			completed: { id: String(completedJob.id), workflow: 'conversion' },
			locked: { id: String(lockedJob.id), workflow: 'conversion' },
			failed: { id: String(failedJob.id), workflow: 'conversion' },
			previewUrl: artifacts[0].previewUrl,
		};

		const undeclared: string[] = [];
		const ran: string[] = [];
		for (const [resource, table] of Object.entries(resources)) {
			const ofResource = (runs[resource as keyof Table] ?? {}) as Record<string, Run | undefined>;
			for (const [operation, module] of Object.entries(table.operations)) {
				let run = ofResource[operation];
				if (!run) {
					// Any other operation: its resource and operation, on an item naming a job made for it alone.
					const job = await made.anotherJob();
					run = runOf({ resource, operation }, () => [jobItem(job)]);
				}
				variant.reset();
				await run(made);
				ran.push(`${resource} > ${operation}`);
				const sent = variant.requests.map((request) => ({
					seen: request.route,
					route: routeNameOf(request, variant),
				}));
				expect({ resource, operation, sent: sent.length > 0 }).toEqual({
					resource,
					operation,
					sent: true,
				});
				const declared: readonly string[] = module.routesCalled;
				for (const { seen, route } of sent) {
					if (route === undefined || !declared.includes(route))
						undeclared.push(`${resource} > ${operation}: ${seen} (${route ?? 'no route'})`);
				}
			}
		}
		// Job > Get has no run of its own above: it ran as any operation added to the table does.
		expect(ran).toContain('job > get');
		expect(undeclared).toEqual([]);
	});
});
