/**
 * Every operation against a service that answers with only the spec's required fields, or with unknown fields
 * everywhere and null wherever the spec allows it (support/variantSuite).
 */
import type { INodeParameters } from 'n8n-workflow';

import { binaryBuffer } from '../../../support/binaryData';
import { runNode } from '../../../support/nodeRun';
import { itemsOf } from '../../support/nodeItems';
import { createAndWaitOnly, stars, useVariantSuite } from '../../support/variantSuite';

jest.setTimeout(120_000);

const { variant, credentials, completedJob } = useVariantSuite();

describe.each(['lean', 'extra'] as const)('a service that answers %s', (shape) => {
	const describeShape =
		shape === 'lean'
			? "only the spec's required fields"
			: 'unknown fields everywhere and null wherever allowed';

	it(
		`Create -> Wait -> Download Preview works (${describeShape}); listed jobs without files ` +
			`cost one detail each`,
		async () => {
			const creds = await credentials();
			variant.answer(shape);
			const items = itemsOf(
				await runNode({
					credentials: creds,
					parameters: createAndWaitOnly({ downloadResults: ['preview'] }),
					input: stars(2),
				}),
			);
			expect(items.map((item) => item.json.status)).toEqual(['completed', 'completed']);
			for (const item of items)
				expect((await binaryBuffer(item.binary!.preview)).length).toBeGreaterThan(100);
			// One detail per job, for its warnings (Show Warnings is on) and its files alike.
			const detailed = variant
				.of('GET /jobs/conversion/{id}')
				.map((request) => request.url.split('/').pop());
			expect(detailed.sort()).toEqual(items.map((item) => String(item.json.id)).sort());
		},
	);

	it(`every other operation works (${describeShape})`, async () => {
		const { creds, id } = await completedJob('subscription');
		variant.answer(shape);
		const job = { jobId: id, workflow: 'conversion' };
		const run = async (parameters: INodeParameters) =>
			itemsOf(await runNode({ credentials: creds, parameters, input: [{}] }));
		const [got] = await run({ resource: 'job', operation: 'get', ...job, simplify: false });
		expect(got.json).toMatchObject({ id, status: 'completed' });
		// The node met the nulls: they pass through to the item.
		if (shape === 'extra') {
			expect(got.json).toMatchObject({
				provider: null,
				metrics: null,
				unlock: null,
				failureCode: null,
				createdAt: null,
				completedAt: null,
			});
			expect(got.json.source).toMatchObject({ previewUrl: null });
		}
		expect(
			(await run({ resource: 'job', operation: 'getMany', returnAll: true, filters: {} })).map(
				(item) => item.json.id,
			),
		).toContain(id);
		expect((await run({ resource: 'job', operation: 'unlock', ...job }))[0].json).toMatchObject({
			id,
			downloadsUnlocked: true,
		});
		const [downloaded] = await run({
			resource: 'job',
			operation: 'download',
			...job,
			files: ['outputs', 'preview'],
			options: {},
		});
		expect(downloaded.binary?.data).toBeDefined();
		expect(downloaded.binary?.preview).toBeDefined();
		const [usage] = await run({ resource: 'account', operation: 'getUsage' });
		expect(typeof usage.json.creditBalance).toBe('number');
		if (shape === 'extra')
			expect(usage.json).toMatchObject({
				subscriptionPlanSlug: null,
				subscriptionRenewsAt: null,
				dailyResetsAt: null,
			});
		expect((await run({ resource: 'format', operation: 'getMany' })).length).toBeGreaterThan(0);
		// A completed job can't be retried: the 409 is explained with the job's state, read from a ${shape} answer.
		const retried = await runNode({
			credentials: creds,
			parameters: { resource: 'job', operation: 'retry', ...job },
			input: [{}],
		});
		expect(retried.error?.message).toMatch(
			new RegExp(`can't be retried: .*\\(job ${id} is completed\\)`),
		);
	});
});
