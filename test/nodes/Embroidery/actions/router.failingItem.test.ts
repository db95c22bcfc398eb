/**
 * Every error names the item that failed, whether Continue On Fail is on or off: each operation of the router's
 * table runs over three items of which only the middle one (item 1) fails, once with the setting off (the run
 * ends with an error about item 1) and once with it on (item 1's output holds the error; items 0 and 2 succeed).
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { resources } from '../../../../nodes/Embroidery/actions/versionDescription';
import type { JobRef } from '../../../../nodes/Embroidery/transport/jobIds';
import { fixture } from '../../../support/embroideryFiles';
import { createAndWait, createConversion } from '../../../support/jobParameters';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import { runNode } from '../../../support/nodeRun';
import type { InputItem } from '../../../support/nodeRun';
import { useSandbox, useVariantService } from '../../../support/sandboxFixture';
import type { SeenRequest } from '../../../support/variantService';
import { embroideryItem, itemsOf } from '../../support/nodeItems';

jest.setTimeout(180_000);

type Table = typeof resources;

/** What the good items of the runs need, made once. */
interface Made {
	/**
	 * Credentials with a new key of the account that owns the jobs, for each run: the service allows 60
	 * requests a minute per key, and the table's runs on one key waited most of their 80 s for it.
	 */
	credentials(): Promise<ApiCredentials>;
	completed: JobRef;
	/** Two completed, locked jobs: Unlock's items 0 and 2. */
	locked: [JobRef, JobRef];
	/** Failed jobs, taken two per run by Retry's items 0 and 2 (a retried job cannot be retried again). */
	failed: JobRef[];
	/** A signed link to the completed job's preview, and one to an upload the service does not have. */
	previewUrl: string;
	missingUrl: string;
	/** Makes another completed job: for an operation without a failing run of its own below. */
	anotherJob(): Promise<JobRef>;
}

/** How an operation's item 1 fails: by its own input, or because the service refuses the item's request. */
interface FailingRun {
	parameters: INodeParameters;
	items: (made: Made) => [InputItem, InputItem, InputItem];
	/** The route whose request of item 1 the service refuses (each item sends one). */
	refuseSecond?: string;
}

// A ULID no job has: the service answers 404 for it.
const missingJob: JobRef = { id: '01HZZZZZZZZZZZZZZZZZZZZZZZ', workflow: 'conversion' };
const jobItem = (ref: JobRef): InputItem => ({ json: { id: ref.id, workflow: ref.workflow } });
const noInput = (): [InputItem, InputItem, InputItem] => [{}, {}, {}];

/** A JEF file cut short: its header says JEF, the rest is missing, so the service refuses it (422). */
const damagedJef: InputItem = {
	binary: {
		data: {
			data: fixture('Star.JEF').subarray(0, 120),
			fileName: 'damaged.jef',
			mimeType: 'application/octet-stream',
		},
	},
};

/**
 * The failing runs of operations that need more than their resource and operation on items naming a job, a job
 * that does not exist, and another job; an operation added to the table runs that way unless it has one here.
 */
const failingRuns: { [R in keyof Table]?: { [O in keyof Table[R]['operations']]?: FailingRun } } = {
	job: {
		create: {
			parameters: createConversion({ format: 'pes' }),
			items: () => [embroideryItem('Star.DST'), damagedJef, embroideryItem('Star.DST')],
		},
		download: {
			parameters: { resource: 'job', operation: 'download', files: ['preview'] },
			items: (made) => [jobItem(made.completed), jobItem(missingJob), jobItem(made.completed)],
		},
		getMany: {
			parameters: { resource: 'job', operation: 'getMany', returnAll: false, limit: 5 },
			items: noInput,
			refuseSecond: 'GET /jobs',
		},
		retry: {
			parameters: { resource: 'job', operation: 'retry' },
			items: (made) => [
				jobItem(made.failed.pop()!),
				jobItem(missingJob),
				jobItem(made.failed.pop()!),
			],
		},
		unlock: {
			parameters: { resource: 'job', operation: 'unlock' },
			items: (made) => [jobItem(made.locked[0]), jobItem(missingJob), jobItem(made.locked[1])],
		},
		waitForCompletion: {
			parameters: { resource: 'job', operation: 'waitForCompletion', downloadResults: [] },
			items: (made) => [jobItem(made.completed), jobItem(missingJob), jobItem(made.completed)],
		},
	},
	format: {
		getMany: {
			parameters: { resource: 'format', operation: 'getMany' },
			items: noInput,
			refuseSecond: 'GET /formats',
		},
	},
	account: {
		getUsage: {
			parameters: { resource: 'account', operation: 'getUsage' },
			items: noInput,
			refuseSecond: 'GET /usage',
		},
	},
	file: {
		download: {
			parameters: {
				resource: 'file',
				operation: 'download',
				url: '={{ $json.url }}',
				binaryPropertyName: 'data',
			},
			items: (made) => [
				{ json: { url: made.previewUrl } },
				{ json: { url: made.missingUrl } },
				{ json: { url: made.previewUrl } },
			],
		},
	},
};

const { sandbox, admin } = useSandbox();
const variant = useVariantService(sandbox);

/** Completed (or, under `engineFailureRate: 1`, failed) jobs of Star.pes, with their full detail. */
async function finishedJobs(credentials: ApiCredentials, count: number) {
	return itemsOf(
		await runNode({
			credentials,
			parameters: createAndWait({ format: 'exp', downloadResults: [], includeFullJob: true }),
			input: Array.from({ length: count }, () => embroideryItem('Star.pes')),
		}),
	).map((item) => item.json);
}

const refOf = (json: { id?: unknown }): JobRef => ({ id: String(json.id), workflow: 'conversion' });

async function makeJobs(): Promise<Made> {
	const { accountId, key } = await admin.createAccountWithKey({
		plan: 'credits',
		creditBalance: 100,
	});
	const credentials = { apiKey: key, baseUrl: variant.baseUrl };
	const withNewKey = async () => ({
		apiKey: (await admin.createKey(accountId)).key,
		baseUrl: variant.baseUrl,
	});
	const [completed, locked0, locked1] = await finishedJobs(credentials, 3);
	await admin.setFaults({ engineFailureRate: 1 });
	const failed = await finishedJobs(credentials, 4).finally(() =>
		admin.setFaults({ engineFailureRate: 0 }),
	);
	expect([completed.status, ...failed.map((job) => job.status)]).toEqual([
		'completed',
		...failed.map(() => 'failed'),
	]);
	const previewUrl = (completed.artifacts as Array<{ previewUrl: string }>)[0].previewUrl;
	const missingUrl = previewUrl.replace(/\/uploads\/[^/?]+/, '/uploads/no-such-upload');
	return {
		credentials: withNewKey,
		completed: refOf(completed),
		locked: [refOf(locked0), refOf(locked1)],
		failed: failed.map(refOf),
		previewUrl,
		missingUrl,
		anotherJob: async () => refOf((await finishedJobs(await withNewKey(), 1))[0]),
	};
}

/**
 * Refuses, once, the first request on `route` after one was answered: item 1's (a request the service answered
 * 429 is tried again, and stays item 0's).
 */
function refusingSecond(route: string): () => void {
	const earlier: SeenRequest[] = [];
	let refused = false;
	return variant.on((request) => {
		if (request.route !== route) return undefined;
		const itemOneAsks = !refused && earlier.some((seen) => seen.status >= 200 && seen.status < 300);
		earlier.push(request);
		if (!itemOneAsks) return undefined;
		refused = true;
		return { status: 403, body: { message: 'This key may not do that right now.' } };
	});
}

const pairedIndex = (item: INodeExecutionData) =>
	(item.pairedItem as { item: number } | undefined)?.item;

test('every operation of the table names item 1 when only item 1 fails, with Continue On Fail off and on', async () => {
	const made = await makeJobs();
	const seen: Array<Record<string, unknown>> = [];
	for (const [resource, table] of Object.entries(resources)) {
		const ofResource = (failingRuns[resource as keyof Table] ?? {}) as Record<string, FailingRun>;
		for (const operation of Object.keys(table.operations)) {
			for (const continueOnFail of [false, true]) {
				// Any other operation: its items name a job made for it, a job that does not exist, another job.
				const jobs = ofResource[operation]
					? []
					: [await made.anotherJob(), await made.anotherJob()];
				const failing: FailingRun = ofResource[operation] ?? {
					parameters: { resource, operation },
					items: () => [jobItem(jobs[0]), jobItem(missingJob), jobItem(jobs[1])],
				};
				const stopRefusing = failing.refuseSecond ? refusingSecond(failing.refuseSecond) : () => {};
				const run = await runNode({
					credentials: await made.credentials(),
					parameters: failing.parameters,
					input: failing.items(made),
					...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				}).finally(stopRefusing);
				const failedItems = run.items.filter((item) => item.json.error !== undefined);
				seen.push({
					resource,
					operation,
					continueOnFail,
					error: continueOnFail
						? failedItems.map((item) => [
								pairedIndex(item),
								/\[item 1\]$/.test(String(item.json.error)),
							])
						: [run.error?.context?.itemIndex, /\[item 1\]$/.test(run.error?.message ?? '')],
					answered: continueOnFail
						? [
								...new Set(
									run.items.filter((item) => item.json.error === undefined).map(pairedIndex),
								),
							]
						: [],
				});
			}
		}
	}
	const expected = seen.map(({ resource, operation, continueOnFail }) => ({
		resource,
		operation,
		continueOnFail,
		error: continueOnFail ? [[1, true]] : [1, true],
		answered: continueOnFail ? [0, 2] : [],
	}));
	expect(seen).toEqual(expected);
	// Job > Get has no failing run of its own above: it ran as any operation added to the table does.
	expect(seen.filter(({ operation }) => operation === 'get')).toHaveLength(2);
});
