/**
 * The editor features of node version 2 against the sandbox, through n8n's real loading and
 * execution: the Job picker's list (listSearch in a real LoadOptionsContext), Simplify, and the
 * execution hints n8n shows on the node.
 */
import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';

import { useClock, wallClock } from '../../../nodes/Embroidery/transport/clock';
import { ulidTime } from '../../../nodes/Embroidery/transport';
import { Api } from '../../sandbox/support/apiClient';
import { listSearch } from '../../support/editorMethods';
import type { ApiCredentials } from '../../support/n8nCredentials';
import type { NodeRun } from '../../support/nodeRun';
import { artworkItem, embroideryItem, itemsOf, run } from '../support/nodeItems';
import { useSandbox } from '../../support/sandboxFixture';

const env = useSandbox();

const v2 = { typeVersion: 2 };

async function createJobs(
	credentials: ApiCredentials,
	workflow: 'conversion' | 'digitising',
	format: string,
	input: Parameters<typeof run>[2],
	waitForCompletion = true,
) {
	const extra = workflow === 'digitising' ? { widthMm: 60, colourCount: 3 } : {};
	const items = itemsOf(
		await run(
			credentials,
			{
				resource: 'job',
				operation: 'create',
				workflow,
				binaryPropertyName: 'data',
				format,
				waitForCompletion,
				timeout: 120,
				...extra,
			},
			input,
		),
	);
	return items.map((item) => item.json);
}

function hintsOf(result: NodeRun): NodeExecutionHint[] {
	return result.run.data.resultData.runData.Embroidery?.[0]?.hints ?? [];
}

const picked = (credentials: ApiCredentials, job: IDataObject) => ({
	__rl: true,
	mode: 'list',
	value: job.id as string,
	cachedResultName: 'picked',
	cachedResultUrl: `${credentials.baseUrl}/jobs/${String(job.workflow)}/${String(job.id)}`,
});

describe("the Job picker lists the account's recent jobs", () => {
	test(
		'each with its source file, output format, workflow, status and age; searchable; linked ' +
			'with its workflow',
		async () => {
			const credentials = await env.credentials();
			// Created one right after the other, then waited for: the ages below are read when the later one was
			// created, so however long the machine takes to finish them, the first is seconds old, not a minute.
			const [converted] = await createJobs(
				credentials,
				'conversion',
				'dst',
				[embroideryItem('Star.pes')],
				false,
			);
			const [digitised] = await createJobs(credentials, 'digitising', 'pes', [artworkItem()]);
			await new Api(env.sandbox, credentials.apiKey).waitForJob('conversion', String(converted.id));
			const restoreClock = useClock({
				now: () => ulidTime(String(digitised.id))!,
				sleep: wallClock.sleep,
			});
			const all = await listSearch('searchJobs', credentials).finally(restoreClock);
			expect(all.results).toEqual([
				{
					name: 'logo.svg → PES · digitising · completed · just now',
					value: digitised.id,
					url: `${credentials.baseUrl}/jobs/digitising/${String(digitised.id)}`,
				},
				{
					name: 'Star.pes → DST · conversion · completed · just now',
					value: converted.id,
					url: `${credentials.baseUrl}/jobs/conversion/${String(converted.id)}`,
				},
			]);
			expect(
				(await listSearch('searchJobs', credentials, 'star')).results.map((result) => result.value),
			).toEqual([converted.id]);
			expect(
				(await listSearch('searchJobs', credentials, 'digitising logo')).results.map(
					(result) => result.value,
				),
			).toEqual([digitised.id]);
			expect(
				(await listSearch('searchJobs', credentials, String(converted.id).slice(-6).toLowerCase()))
					.results,
			).toHaveLength(1);
			expect((await listSearch('searchJobs', credentials, 'failed')).results).toEqual([]);
		},
	);

	test("a key without jobs:read gets the service's refusal, not an empty list", async () => {
		const credentials = await env.credentials({ plan: 'credits' }, ['formats:read']);
		await expect(listSearch('searchJobs', credentials)).rejects.toThrow(/jobs:read/);
	});
});

describe('Simplify (on by default from version 2)', () => {
	test('Get keeps what people read and leaves signed links and raw objects out; off returns everything', async () => {
		const credentials = await env.credentials();
		const [job] = await createJobs(credentials, 'conversion', 'exp', [embroideryItem('Star.pes')]);
		const [simple] = itemsOf(
			await run(
				credentials,
				{ resource: 'job', operation: 'get', jobId: picked(credentials, job) },
				[{}],
				v2,
			),
		);
		expect(simple.json).toMatchObject({
			id: job.id,
			workflow: 'conversion',
			status: 'completed',
			formats: ['exp'],
			downloadsUnlocked: false,
			sourceFile: 'Star.pes',
			sourceFileSize: expect.any(Number),
			outputFile: expect.stringMatching(/\.exp$/i),
			outputFileSize: expect.any(Number),
			metrics: expect.any(Object),
			warnings: expect.arrayContaining([expect.stringMatching(/EXP carries no thread colours/)]),
		});
		expect(JSON.stringify(simple.json)).not.toMatch(/signature=|downloadUrl|previewUrl/);
		for (const raw of ['source', 'outputs', 'artifacts', 'events', 'unlock', 'provider'])
			expect(simple.json).not.toHaveProperty(raw);

		const [full] = itemsOf(
			await run(
				credentials,
				{ resource: 'job', operation: 'get', jobId: picked(credentials, job), simplify: false },
				[{}],
				v2,
			),
		);
		expect(full.json).toMatchObject({
			id: job.id,
			workflow: 'conversion',
			source: { downloadUrl: expect.stringContaining('signature=') },
		});
		expect(full.json.events).toEqual(expect.any(Array));
	});

	test('Get Many is simplified in version 2 and unchanged in version 1', async () => {
		const credentials = await env.credentials();
		await createJobs(credentials, 'conversion', 'dst', [
			embroideryItem('Star.JEF'),
			embroideryItem('Star.EXP'),
		]);
		const simple = itemsOf(
			await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }, [{}], v2),
		);
		expect(simple).toHaveLength(2);
		expect(simple.map((item) => item.json.sourceFile).sort()).toEqual(['Star.EXP', 'Star.JEF']);
		expect(JSON.stringify(simple.map((item) => item.json))).not.toMatch(/signature=/);
		const raw = itemsOf(
			await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }),
		);
		expect(raw[0].json).toHaveProperty('kind', 'conversion');
		expect(raw[0].json).toHaveProperty('preview.previewUrl', expect.stringContaining('signature='));
	});
});

describe('execution hints on the node', () => {
	test('job warnings and locked machine files, with the next step', async () => {
		const credentials = await env.credentials();
		const [job] = await createJobs(credentials, 'conversion', 'exp', [embroideryItem('Star.pes')]);
		const result = await run(
			credentials,
			{ resource: 'job', operation: 'get', jobId: picked(credentials, job) },
			[{}],
			v2,
		);
		const hints = hintsOf(result);
		expect(hints).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message: expect.stringMatching(
					new RegExp(
						`^Job ${String(job.id)} has \\d+ warnings?: .*EXP carries no thread colours.* ` +
							`Check the design before you stitch it\\.$`,
					),
				),
			},
			{
				type: 'info',
				location: 'outputPane',
				message:
					`The machine files of job ${String(job.id)} are locked. Use Job > Unlock (it spends a ` +
					`subscription entitlement or credits), then download the files.`,
			},
		]);
	});

	test('a preview downloaded while locked is watermarked; after Unlock no lock hint remains', async () => {
		const credentials = await env.credentials();
		const [job] = await createJobs(credentials, 'conversion', 'dst', [embroideryItem('Star.JEF')]);
		const locked = await run(
			credentials,
			{
				resource: 'job',
				operation: 'download',
				jobId: picked(credentials, job),
				files: ['preview'],
			},
			[{}],
			v2,
		);
		expect(hintsOf(locked).map((hint) => hint.message)).toContain(
			`The machine files of job ${String(job.id)} are locked, and its preview is watermarked. ` +
				`Use Job > Unlock (it spends a subscription entitlement or credits), then download the files.`,
		);
		itemsOf(
			await run(
				credentials,
				{ resource: 'job', operation: 'unlock', jobId: picked(credentials, job) },
				[{}],
				v2,
			),
		);
		const unlocked = await run(
			credentials,
			{
				resource: 'job',
				operation: 'download',
				jobId: picked(credentials, job),
				files: ['outputs', 'preview'],
			},
			[{}],
			v2,
		);
		expect(itemsOf(unlocked)[0].binary?.data).toBeDefined();
		expect(hintsOf(unlocked).filter((hint) => /locked/.test(hint.message))).toEqual([]);
	});

	test('a failed job says why and what to do next', async () => {
		const credentials = await env.credentials();
		await env.admin.setFaults({ engineFailureRate: 1 });
		try {
			const [job] = await createJobs(credentials, 'conversion', 'dst', [
				embroideryItem('Star.JEF'),
			]);
			expect(job.status).toBe('failed');
			const result = await run(
				credentials,
				{ resource: 'job', operation: 'get', jobId: picked(credentials, job) },
				[{}],
				v2,
			);
			const [hint] = hintsOf(result);
			expect(hint).toEqual({
				type: 'danger',
				location: 'outputPane',
				message: expect.stringMatching(
					new RegExp(
						`^Job ${String(job.id)} failed: .+\\. Fix the source if the reason points at it, then use Job > Retry\\.$`,
					),
				),
			});
			expect(itemsOf(result)[0].json).toMatchObject({
				status: 'failed',
				failureCode: expect.any(String),
				failureReason: expect.any(String),
			});
		} finally {
			await env.admin.clearFaults();
		}
	});

	test('version 1 nodes show the same hints over their unchanged output', async () => {
		const credentials = await env.credentials();
		const [job] = await createJobs(credentials, 'conversion', 'exp', [embroideryItem('Star.pes')]);
		const result = await run(credentials, {
			resource: 'job',
			operation: 'get',
			jobId: job.id as string,
			workflow: 'conversion',
		});
		expect(itemsOf(result)[0].json).toHaveProperty('source.downloadUrl');
		expect(hintsOf(result).map((hint) => hint.type)).toEqual(['warning', 'info']);
	});
});
