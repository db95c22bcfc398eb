/**
 * The creation answer lists its jobs without their files, so the jobs of a request of several files are paired with
 * the files by array order. Where a later answer shows a job's `source.name`, the node checks it: a swapped order is
 * paired by name when names are unique, and otherwise the item fails, naming both names; no wrong file is attached.
 */

import {
	pairBySourceName,
	sameStoredName,
} from '../../../../nodes/Embroidery/helpers/sourcePairing';
import type { INodeExecutionData } from 'n8n-workflow';

import { createAndWait, createConversion } from '../../../support/jobParameters';
import { runNode } from '../../../support/nodeRun';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import {
	newCredentials,
	useWorkerSandbox,
	useVariantService,
} from '../../../support/sandboxFixture';
import { embroideryItem, itemsOf } from '../../support/nodeItems';
import { fixture } from '../../../support/embroideryFiles';

jest.setTimeout(120_000);

describe('pairBySourceName', () => {
	const job = (sentName: string, shownName?: string, batch = 1, requestFiles = 2) => ({
		sentName,
		shownName,
		batch,
		requestFiles,
	});

	it('keeps the order when every shown name matches, or none is shown', () => {
		expect(pairBySourceName([job('a.dst', 'a.dst'), job('b.dst', 'b.dst')])).toEqual([
			{ use: 0 },
			{ use: 1 },
		]);
		expect(pairBySourceName([job('a.dst'), job('b.dst')])).toEqual([{ use: 0 }, { use: 1 }]);
	});

	it('pairs a swapped request by name when its names are unique', () => {
		expect(
			pairBySourceName([job('a.dst', 'c.dst'), job('b.dst', 'a.dst'), job('c.dst', 'b.dst')]),
		).toEqual([{ use: 2 }, { use: 0 }, { use: 1 }]);
	});

	it('a job of a one-file request keeps its item whatever name it shows: its file is certain', () => {
		expect(pairBySourceName([job('a.dst', 'b.dst', 1, 1), job('c.dst', 'd.dst', 2, 1)])).toEqual([
			{ use: 0 },
			{ use: 1 },
		]);
		expect(pairBySourceName([{ sentName: 'a.dst', shownName: 'b.dst', batch: 1 }])).toEqual([
			{ use: 0 },
		]);
	});

	it('names as the service may have stored them are the same name, also within a request of several files', () => {
		const long = `${'x'.repeat(246)}.DST`;
		const stored: Array<[string, string]> = [
			['my "logo".JEF', 'my %22logo%22.JEF'],
			['my %22logo%22.JEF', 'my "logo".JEF'],
			[' lead.DST', 'lead.DST'],
			[long, long.slice(0, 200)],
			// Cut in its stem, its extension kept (as the sandbox stores it, so its format still shows).
			[long, `${'x'.repeat(196)}.DST`],
			['bell\u0007.DST', 'bell.DST'],
			['line\nbreak.DST', 'linebreak.DST'],
			['folder/inner.DST', 'inner.DST'],
		];
		for (const [sent, shown] of stored)
			expect([sent, sameStoredName(sent, shown)]).toEqual([sent, true]);
		expect(sameStoredName('a.DST', 'b.DST')).toBe(false);
		expect(sameStoredName('Star.DST', 'Star.JEF')).toBe(false);
		// A short shown name is not taken for a cut one.
		expect(sameStoredName('a.DST.backup', 'a.DST')).toBe(false);
		// A cut that keeps another extension, or another stem, is another file.
		expect(sameStoredName(long, `${'x'.repeat(196)}.JEF`)).toBe(false);
		expect(sameStoredName(long, `${'y'.repeat(196)}.DST`)).toBe(false);
		expect(
			pairBySourceName([job('my "logo".JEF', 'my %22logo%22.JEF'), job(' b.dst', 'b.dst')]),
		).toEqual([{ use: 0 }, { use: 1 }]);
		// A swap is still paired by stored names.
		expect(
			pairBySourceName([job('my "logo".JEF', 'b.dst'), job(' b.dst', 'my %22logo%22.JEF')]),
		).toEqual([{ use: 1 }, { use: 0 }]);
	});

	it('never pairs across requests', () => {
		expect(pairBySourceName([job('a.dst', 'b.dst', 1), job('b.dst', 'a.dst', 2)])).toEqual([
			{ mismatch: { sent: 'a.dst', shown: 'b.dst' } },
			{ mismatch: { sent: 'b.dst', shown: 'a.dst' } },
		]);
	});

	it('a mismatch that names cannot settle is reported, and only the jobs that showed it', () => {
		// Two files of one name: a job that shows the other name cannot be placed.
		expect(
			pairBySourceName([job('a.dst', 'b.dst'), job('a.dst', 'a.dst'), job('b.dst', 'a.dst')]),
		).toEqual([
			{ mismatch: { sent: 'a.dst', shown: 'b.dst' } },
			{ use: 1 },
			{ mismatch: { sent: 'b.dst', shown: 'a.dst' } },
		]);
		// A name that was not sent at all, or a job of the request that shows no name.
		expect(pairBySourceName([job('a.dst', 'renamed.dst'), job('b.dst', 'b.dst')])).toEqual([
			{ mismatch: { sent: 'a.dst', shown: 'renamed.dst' } },
			{ use: 1 },
		]);
		// The job that shows no name keeps no item whose file another job shows.
		expect(pairBySourceName([job('a.dst', 'b.dst'), job('b.dst')])).toEqual([
			{ mismatch: { sent: 'a.dst', shown: 'b.dst' } },
			{ mismatch: { sent: 'b.dst' } },
		]);
		expect(pairBySourceName([job('a.dst', 'c.dst'), job('b.dst'), job('c.dst', 'c.dst')])).toEqual([
			{ mismatch: { sent: 'a.dst', shown: 'c.dst' } },
			{ use: 1 },
			{ use: 2 },
		]);
	});
});

describe('Create with Wait and Combine Items, against a service that answers the creation in another order', () => {
	const { sandbox, admin } = useWorkerSandbox();
	const variant = useVariantService(sandbox);

	async function credentials(): Promise<ApiCredentials> {
		return await newCredentials(admin, variant.baseUrl, { plan: 'credits', creditBalance: 100 });
	}

	/** The account's jobs by source name, read from the sandbox directly. */
	async function jobsBySource(creds: ApiCredentials): Promise<Map<string, string>> {
		const response = await fetch(`${sandbox.baseUrl}/jobs`, {
			headers: { Authorization: `Bearer ${creds.apiKey}`, Accept: 'application/json' },
		});
		const { data } = (await response.json()) as {
			data: Array<{ id: string; source: { name: string } }>;
		};
		return new Map(data.map((job) => [job.source.name, job.id]));
	}

	const reversedCreation = () =>
		variant.on((request) =>
			request.route === 'POST /jobs'
				? { rewrite: (body) => ({ ...body, jobs: [...(body.jobs as unknown[])].reverse() }) }
				: undefined,
		);

	/** Items 0 and 1 (Star.DST, Star.JEF) each carry the job made from their own file. */
	async function expectEachItemWithItsFile(creds: ApiCredentials, items: INodeExecutionData[]) {
		const bySource = await jobsBySource(creds);
		expect(items.map((item) => [item.json.sourceFile, item.json.id])).toEqual([
			['Star.DST', bySource.get('Star.DST')],
			['Star.JEF', bySource.get('Star.JEF')],
		]);
		expect(items.map((item) => (item.json.source as { name: string }).name)).toEqual([
			'Star.DST',
			'Star.JEF',
		]);
	}

	const twoFiles = [embroideryItem('Star.DST'), embroideryItem('Star.JEF')];
	const parameters = createAndWait({ timeout: 90, options: { batching: 'combine' } });

	it('pairs each job with the file it was made from, by the names the listing shows', async () => {
		const creds = await credentials();
		reversedCreation();
		const items = itemsOf(await runNode({ credentials: creds, parameters, input: twoFiles }));
		expect(variant.of('POST /jobs')).toHaveLength(1);
		await expectEachItemWithItsFile(creds, items);
	});

	it('fails the items whose job shows a name no file of the request had, naming both; attaches nothing', async () => {
		const creds = await credentials();
		const renamed = (file: unknown) => ({ ...(file as object), name: 'Renamed.DST' });
		variant.on((request) => {
			if (request.route === 'GET /jobs') {
				return {
					rewrite: (body) => ({
						...body,
						data: (body.data as Array<Record<string, unknown>>).map((job) => ({
							...job,
							source: renamed(job.source),
						})),
					}),
				};
			}
			if (request.route === 'GET /jobs/conversion/{id}') {
				return {
					rewrite: (body) => ({
						...body,
						job: {
							...(body.job as object),
							source: renamed((body.job as { source: unknown }).source),
						},
					}),
				};
			}
			return undefined;
		});
		const result = await runNode({
			credentials: creds,
			parameters,
			input: twoFiles,
			onError: 'continueRegularOutput',
		});
		expect(variant.of('POST /jobs')).toHaveLength(1);
		const bySource = await jobsBySource(creds);
		expect(result.items).toHaveLength(2);
		for (const [index, name] of ['Star.DST', 'Star.JEF'].entries()) {
			const item = result.items[index];
			expect(item.json.error).toBe(
				`Job ${bySource.get(name)} was made from "Renamed.DST", but the file of item ${index} ` +
					`is "${name}"; no file of it was attached [item ${index}]`,
			);
			expect(item.json).toMatchObject({ id: bySource.get(name), workflow: 'conversion' });
			expect(item.json.description).toMatch(/Job > Get/);
			expect(item.binary).toBeUndefined();
		}
	});

	/** Star.JEF's bytes under another file name. */
	const namedStar = (fileName: string) => ({
		binary: { data: { data: fixture('Star.JEF'), fileName, mimeType: 'application/octet-stream' } },
	});
	const storedDifferently = [
		'my "logo".JEF',
		' lead.JEF',
		`${'long-name-'.repeat(25)}.JEF`,
		'bell\u0007.JEF',
	];

	it('delivers every job whose name the service stored differently, alone in its request or combined', async () => {
		const creds = await credentials();
		for (const batching of ['perItem', 'combine']) {
			const result = await runNode({
				credentials: creds,
				parameters: createAndWait({ timeout: 90, options: { batching } }),
				input: storedDifferently.map(namedStar),
				onError: 'continueRegularOutput',
			});
			expect(result.items.map((item) => [item.json.error, item.json.status])).toEqual(
				storedDifferently.map(() => [undefined, 'completed']),
			);
			expect(result.items.map((item) => item.json.sourceFile)).toEqual(storedDifferently);
		}
	});

	describe('Create (Combine Items) followed by a separate Wait for Completion or Download node', () => {
		async function createdInReverse(creds: ApiCredentials) {
			reversedCreation();
			const created = await runNode({
				credentials: creds,
				parameters: createConversion({ options: { batching: 'combine' } }),
				input: twoFiles,
			});
			variant.reset();
			return created.items.map((item) => ({ json: item.json }));
		}

		it('Wait for Completion pairs each item with the job made from its file', async () => {
			const creds = await credentials();
			const input = await createdInReverse(creds);
			expect(input.map((item) => item.json.sameRequestJobs)).toEqual([
				expect.any(Array),
				expect.any(Array),
			]);
			const items = itemsOf(
				await runNode({
					credentials: creds,
					parameters: {
						resource: 'job',
						operation: 'waitForCompletion',
						timeout: 90,
						downloadResults: ['preview'],
					},
					input,
					typeVersion: 2,
				}),
			);
			await expectEachItemWithItsFile(creds, items);
		});

		it('Download fails the item whose job was made from another file, attaching nothing', async () => {
			const creds = await credentials();
			const input = await createdInReverse(creds);
			await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'waitForCompletion', timeout: 90 },
				input: input.map((item) => ({ json: { id: item.json.id, workflow: 'conversion' } })),
			});
			const result = await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'download', files: ['preview'] },
				input,
				onError: 'continueRegularOutput',
			});
			const bySource = await jobsBySource(creds);
			expect(result.items.map((item) => item.json.error)).toEqual([
				`Job ${bySource.get('Star.JEF')} was made from "Star.JEF", but the file of item 0 is ` +
					`"Star.DST"; no file of it was attached [item 0]`,
				`Job ${bySource.get('Star.DST')} was made from "Star.DST", but the file of item 1 is ` +
					`"Star.JEF"; no file of it was attached [item 1]`,
			]);
			expect(result.items.map((item) => item.binary)).toEqual([undefined, undefined]);
		});
	});
});
