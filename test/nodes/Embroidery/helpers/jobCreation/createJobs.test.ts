/**
 * Nothing the service created is lost: jobs created before a listing, a request or a wait fails reach the output
 * with their ids, and an unlock is never sent twice. Against spec-valid variants of the service (support/variantSuite).
 */
import { runNode } from '../../../../support/nodeRun';
import type { InputItem } from '../../../../support/nodeRun';
import { embroideryItem, itemsOf } from '../../../support/nodeItems';
import { createAndWaitOnly, stars, useVariantSuite } from '../../../support/variantSuite';

jest.setTimeout(120_000);

const { variant, credentials, completedJob, createdIds } = useVariantSuite();

describe('nothing the service created is lost', () => {
	it(
		'a listing that fails after creation: each created job comes out as an error item with its ' +
			'id and workflow',
		async () => {
			const creds = await credentials();
			variant.on((request) =>
				request.route === 'GET /jobs'
					? { status: 500, body: { message: 'Server Error' } }
					: undefined,
			);
			const result = await runNode({
				credentials: creds,
				parameters: createAndWaitOnly(),
				input: stars(3),
				onError: 'continueRegularOutput',
			});
			const created = await createdIds(creds);
			expect(created).toHaveLength(3);
			expect(result.items.map((item) => item.json.id)).toEqual(created);
			for (const item of result.items) {
				expect(item.json).toMatchObject({
					workflow: 'conversion',
					error: expect.stringContaining('Server Error'),
				});
				expect(item.json.description).toMatch(/do not create it again/);
			}

			const stopped = await runNode({
				credentials: creds,
				parameters: createAndWaitOnly(),
				input: stars(3),
			});
			const all = await createdIds(creds);
			expect(all).toHaveLength(6);
			// Each job is named once: by the error it is about, or in the list of the others the run created.
			for (const id of all.slice(3)) expect(stopped.error?.description?.split(id)).toHaveLength(2);
		},
	);

	it('a 422 on the second files[] request keeps the jobs of the first', async () => {
		const creds = await credentials();
		let posts = 0;
		variant.on((request) =>
			request.route === 'POST /jobs' && ++posts === 2
				? {
						status: 422,
						body: {
							message: 'The given data was invalid.',
							errors: { 'files.0': ['The file is not readable.'] },
						},
					}
				: undefined,
		);
		const twoFiles = (): InputItem => ({
			binary: {
				...embroideryItem('Star.DST', 'a').binary,
				...embroideryItem('Star.DST', 'b').binary,
			},
		});
		const result = await runNode({
			credentials: creds,
			parameters: {
				...createAndWaitOnly({ binaryPropertyName: 'a, b' }),
				waitForCompletion: false,
			},
			input: [twoFiles(), twoFiles()],
			onError: 'continueRegularOutput',
		});
		const created = await createdIds(creds);
		expect(created).toHaveLength(2);
		expect(result.items.map((item) => item.json.id ?? item.json.httpCode)).toEqual([
			...created,
			'422',
		]);

		posts = 0;
		const stopped = await runNode({
			credentials: creds,
			parameters: {
				...createAndWaitOnly({ binaryPropertyName: 'a, b' }),
				waitForCompletion: false,
			},
			input: [twoFiles(), twoFiles()],
		});
		expect(stopped.error?.message).toMatch(/rejected the request/);
		for (const id of (await createdIds(creds)).slice(2))
			expect(stopped.error?.description).toContain(id);
	});

	it(
		'an answer naming fewer jobs than files were sent: the jobs it names reach the error items ' +
			'(Continue On Fail)',
		async () => {
			const creds = await credentials();
			const named: string[][] = [];
			let posts = 0;
			// The first answer leaves out one of its 3 jobs, the second two.
			variant.on((request) =>
				request.route === 'POST /jobs'
					? {
							rewrite: (body) => {
								const jobs = (body.jobs as Array<{ id: string }>).slice(0, ++posts === 1 ? 2 : 1);
								named.push(jobs.map((job) => job.id));
								return { ...body, jobs };
							},
						}
					: undefined,
			);
			const threeFiles = (): InputItem => ({
				binary: {
					...embroideryItem('Star.DST', 'a').binary,
					...embroideryItem('Star.DST', 'b').binary,
					...embroideryItem('Star.DST', 'c').binary,
				},
			});
			const result = await runNode({
				credentials: creds,
				parameters: createAndWaitOnly({ binaryPropertyName: 'a, b, c' }),
				input: [threeFiles(), threeFiles()],
				onError: 'continueRegularOutput',
			});
			expect(await createdIds(creds)).toHaveLength(6);
			const [first, second] = result.items;
			expect(result.items).toHaveLength(2);
			expect(first.json).toMatchObject({
				jobs: named[0].map((id) => ({ id, workflow: 'conversion' })),
				error: 'The service accepted 2 jobs for 3 files [item 0]',
			});
			expect(second.json).toMatchObject({
				id: named[1][0],
				workflow: 'conversion',
				error: 'The service accepted 1 job for 3 files [item 1]',
			});
			for (const [index, item] of result.items.entries()) {
				for (const id of named[index])
					expect(item.json.description).toContain(`${id} (conversion)`);
				expect(item.json.description).toMatch(/do not create (it|them) again/);
			}
		},
	);

	it(
		"at the wait's timeout, finished jobs are delivered with their files and only the " +
			'unfinished one is an error',
		async () => {
			const creds = await credentials();
			let stuck: string | undefined;
			variant.on((request) => {
				if (request.route === 'GET /jobs') {
					return {
						rewrite: (body) => {
							const data = body.data as Array<Record<string, unknown>>;
							stuck ??= String(data[0]?.id);
							for (const entry of data) if (entry.id === stuck) entry.status = 'processing';
							return body;
						},
					};
				}
				return undefined;
			});
			const result = await runNode({
				credentials: creds,
				parameters: createAndWaitOnly({ timeout: 30, downloadResults: ['preview'] }),
				input: stars(2),
				onError: 'continueRegularOutput',
			});
			expect(result.items).toHaveLength(2);
			const [finished, unfinished] = result.items;
			expect(finished.json).toMatchObject({
				status: 'completed',
				files: [expect.objectContaining({ kind: 'preview' })],
			});
			expect(finished.binary?.preview).toBeDefined();
			expect(unfinished.json).toMatchObject({
				id: stuck,
				workflow: 'conversion',
				error: `Job ${stuck} is still processing after 30 s [item 1]`,
			});
		},
	);

	it('an unlock whose answer is lost is reported as unknown, with its id, and never sent again', async () => {
		const creds = await credentials('subscription');
		variant.on((request) => (request.route.endsWith('/unlock') ? { dropAnswer: true } : undefined));
		const result = await runNode({
			credentials: creds,
			parameters: createAndWaitOnly({ downloadResults: ['outputs'], unlockBeforeDownload: true }),
			input: stars(1),
			onError: 'continueRegularOutput',
		});
		const [id] = await createdIds(creds);
		expect(result.items[0].json).toMatchObject({
			id,
			workflow: 'conversion',
			error: expect.stringMatching(
				/Unlock state unknown: the answer to the unlock request was lost/,
			),
		});
		expect(result.items[0].json.description).toMatch(/Check the job with Job > Get/);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		variant.reset();
		const [got] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'get', jobId: id, workflow: 'conversion' },
				input: [{}],
			}),
		);
		expect(got.json.downloadsUnlocked).toBe(true);
	});

	it('a job named by two items is unlocked once', async () => {
		const { creds, id } = await completedJob('subscription');
		const [first, second] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: {
					resource: 'job',
					operation: 'waitForCompletion',
					jobId: id,
					workflow: 'conversion',
					timeout: 30,
					downloadResults: ['outputs'],
					unlockBeforeDownload: true,
				},
				input: [{}, {}],
			}),
		);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		expect(first.binary?.data).toBeDefined();
		expect(second.binary?.data).toBeDefined();
	});

	it(
		'Job > Unlock of one job named by two items sends ' +
			'one unlock; both items get its answer, or its error',
		async () => {
			const { creds, id } = await completedJob('subscription');
			const unlock = { resource: 'job', operation: 'unlock', jobId: id, workflow: 'conversion' };
			const [first, second] = itemsOf(
				await runNode({ credentials: creds, parameters: unlock, input: [{}, {}] }),
			);
			expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
			for (const item of [first, second])
				expect(item.json).toMatchObject({ id, workflow: 'conversion', downloadsUnlocked: true });
			expect(second.json.message).toBe(first.json.message);
			expect(typeof first.json.message).toBe('string');

			const other = await completedJob('subscription');
			variant.on((request) =>
				request.route.endsWith('/unlock') ? { dropAnswer: true } : undefined,
			);
			const lost = await runNode({
				credentials: other.creds,
				parameters: { ...unlock, jobId: other.id },
				input: [{}, {}],
				onError: 'continueRegularOutput',
			});
			expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
			expect(lost.items.map((item) => item.json.error)).toEqual([
				expect.stringMatching(/^Unlock state unknown/),
				expect.stringMatching(/^Unlock state unknown/),
			]);
			expect(lost.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		},
	);
});
