/**
 * Node version 3 against the sandbox, through n8n's real execution: Simplify's ten flat fields with the
 * file links (usable as they come), and the AI tool variant's Output (Simplified, Raw, Selected Fields).
 * The tool variant is the node as n8n derives it: the same class, its type name ending in "Tool".
 */
import type { IDataObject } from 'n8n-workflow';

import { packageName, registerNodeType } from '../../../support/nodeTypes';
import type { ApiCredentials } from '../../../support/n8nCredentials';
import { embroideryItem, itemsOf, run } from '../../support/nodeItems';
import { useWorkerSandbox } from '../../../support/sandboxFixture';

// Named with its extension: beside Embroidery.node.ts lies its codex Embroidery.node.json.
type EmbroideryNodeModule = typeof import('../../../../nodes/Embroidery/Embroidery.node');
const { Embroidery } =
	require('../../../../nodes/Embroidery/Embroidery.node.ts') as EmbroideryNodeModule;

const toolType = `${packageName}.embroideryTool`;
const tool = new Embroidery();
tool.description = {
	...tool.description,
	name: `${tool.description.name}Tool`,
	displayName: `${tool.description.displayName} Tool`,
};
registerNodeType(toolType, tool);

const env = useWorkerSandbox();
const v3 = { typeVersion: 3 };
const asTool = { typeVersion: 3, nodeType: toolType };

const tenFields = [
	'id',
	'workflow',
	'status',
	'downloadsUnlocked',
	'outputUrl',
	'previewUrl',
	'warnings',
	'failureCode',
	'failureReason',
	'attemptCount',
];

async function convertedJob(credentials: ApiCredentials, name = 'Star.pes'): Promise<IDataObject> {
	const [item] = itemsOf(
		await run(
			credentials,
			{
				resource: 'job',
				operation: 'create',
				workflow: 'conversion',
				binaryPropertyName: 'data',
				format: 'exp',
				waitForCompletion: true,
				timeout: 120,
			},
			[embroideryItem(name)],
			v3,
		),
	);
	return item.json;
}

const byId = (job: IDataObject) => ({ __rl: true, mode: 'id', value: job.id as string });

async function getJob(
	credentials: ApiCredentials,
	job: IDataObject,
	extra: IDataObject = {},
	options = v3,
): Promise<IDataObject> {
	const [item] = itemsOf(
		await run(
			credentials,
			{ resource: 'job', operation: 'get', jobId: byId(job), ...extra },
			[{}],
			options,
		),
	);
	return item.json;
}

async function downloadLink(credentials: ApiCredentials, url: string) {
	const [item] = itemsOf(
		await run(
			credentials,
			{ resource: 'file', operation: 'download', url, binaryPropertyName: 'data' },
			[{}],
			v3,
		),
	);
	return item;
}

describe('Simplify in node version 3', () => {
	test(
		'Get returns the ten fields in order, flat, with links that download: the preview now, the ' +
			'machine file after Unlock',
		async () => {
			const credentials = await env.credentials();
			const job = await convertedJob(credentials);
			const locked = await getJob(credentials, job);
			expect(Object.keys(locked)).toEqual(tenFields);
			expect(locked).toMatchObject({
				id: job.id,
				workflow: 'conversion',
				status: 'completed',
				downloadsUnlocked: false,
				outputUrl: null,
				previewUrl: expect.stringContaining('signature='),
				warnings: expect.arrayContaining([expect.stringMatching(/EXP carries no thread colours/)]),
				failureCode: null,
				failureReason: null,
			});
			const preview = await downloadLink(credentials, locked.previewUrl as string);
			expect(preview.binary?.data.mimeType).toMatch(/^image\//);

			itemsOf(
				await run(
					credentials,
					{ resource: 'job', operation: 'unlock', jobId: byId(job) },
					[{}],
					v3,
				),
			);
			const unlocked = await getJob(credentials, job);
			expect(unlocked).toMatchObject({
				downloadsUnlocked: true,
				outputUrl: expect.stringContaining('signature='),
			});
			const machineFile = await downloadLink(credentials, unlocked.outputUrl as string);
			expect(machineFile.binary?.data.fileName).toMatch(/\.exp$/i);
		},
	);

	test('Get Many returns the ten fields for each listed job; Simplify off returns the listing entry', async () => {
		const credentials = await env.credentials();
		const job = await convertedJob(credentials, 'Star.JEF');
		const [listed] = itemsOf(
			await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }, [{}], v3),
		);
		expect(Object.keys(listed.json)).toEqual(tenFields);
		expect(listed.json).toMatchObject({
			id: job.id,
			status: 'completed',
			previewUrl: expect.stringContaining('signature='),
			outputUrl: null,
		});
		const [raw] = itemsOf(
			await run(
				credentials,
				{ resource: 'job', operation: 'getMany', returnAll: true, simplify: false },
				[{}],
				v3,
			),
		);
		expect(raw.json).toMatchObject({
			id: job.id,
			kind: 'conversion',
			preview: { previewUrl: expect.stringContaining('signature=') },
		});
	});

	test(
		'Create with Wait for Completion, Wait for Completion and Unlock return the ten fields; the ' +
			'binary stays as it is',
		async () => {
			const credentials = await env.credentials();
			const [created] = itemsOf(
				await run(
					credentials,
					{
						resource: 'job',
						operation: 'create',
						workflow: 'conversion',
						binaryPropertyName: 'data',
						format: 'exp',
						waitForCompletion: true,
						timeout: 120,
						downloadResults: ['outputs', 'preview'],
						unlockBeforeDownload: true,
					},
					[embroideryItem('Star.pes')],
					v3,
				),
			);
			expect(Object.keys(created.json)).toEqual(tenFields);
			expect(created.json).toMatchObject({
				status: 'completed',
				downloadsUnlocked: true,
				outputUrl: expect.stringContaining('signature='),
			});
			expect(Object.values(created.binary ?? {}).map((file) => file.fileName)).toEqual(
				expect.arrayContaining([expect.stringMatching(/\.exp$/i)]),
			);

			const job = await convertedJob(credentials, 'Star.JEF');
			expect(Object.keys(job)).toEqual(tenFields);
			const [waited] = itemsOf(
				await run(
					credentials,
					{ resource: 'job', operation: 'waitForCompletion', jobId: byId(job), timeout: 60 },
					[{}],
					v3,
				),
			);
			expect(Object.keys(waited.json)).toEqual(tenFields);
			expect(waited.json).toMatchObject({
				id: job.id,
				status: 'completed',
				downloadsUnlocked: false,
				outputUrl: null,
			});

			const [unlocked] = itemsOf(
				await run(
					credentials,
					{ resource: 'job', operation: 'unlock', jobId: byId(job) },
					[{}],
					v3,
				),
			);
			expect(Object.keys(unlocked.json)).toEqual(tenFields);
			expect(unlocked.json).toMatchObject({
				id: job.id,
				downloadsUnlocked: true,
				outputUrl: expect.stringContaining('signature='),
			});

			const [rawUnlock] = itemsOf(
				await run(
					credentials,
					{ resource: 'job', operation: 'unlock', jobId: byId(job), simplify: false },
					[{}],
					v3,
				),
			);
			expect(rawUnlock.json).toMatchObject({
				id: job.id,
				downloadsUnlocked: true,
				message: expect.any(String),
				outputs: expect.any(Array),
			});
		},
	);

	test('version 2 Unlock and Wait for Completion return the whole job as before', async () => {
		const credentials = await env.credentials();
		const job = await convertedJob(credentials);
		const v2 = { typeVersion: 2 };
		const [waited] = itemsOf(
			await run(
				credentials,
				{ resource: 'job', operation: 'waitForCompletion', jobId: byId(job), timeout: 60 },
				[{}],
				v2,
			),
		);
		expect(waited.json).toMatchObject({ id: job.id, status: 'completed', formats: ['exp'] });
		const [unlocked] = itemsOf(
			await run(credentials, { resource: 'job', operation: 'unlock', jobId: byId(job) }, [{}], v2),
		);
		expect(unlocked.json).toMatchObject({
			id: job.id,
			downloadsUnlocked: true,
			message: expect.any(String),
			outputs: expect.any(Array),
		});
	});

	test('version 2 keeps the Simplify it shipped with', async () => {
		const credentials = await env.credentials();
		const job = await convertedJob(credentials);
		const simple = await getJob(credentials, job, {}, { typeVersion: 2 });
		expect(simple).toMatchObject({
			id: job.id,
			formats: ['exp'],
			sourceFile: 'Star.pes',
			metrics: expect.any(Object),
		});
		expect(JSON.stringify(simple)).not.toMatch(/signature=/);
	});
});

describe('Output in the AI tool variant of version 3', () => {
	test('Simplified by default, Raw on request, Selected Fields always with the ID', async () => {
		const credentials = await env.credentials();
		const job = await convertedJob(credentials);

		const simplified = await getJob(credentials, job, {}, asTool);
		expect(Object.keys(simplified)).toEqual(tenFields);
		expect(simplified.previewUrl).toEqual(expect.stringContaining('signature='));

		const raw = await getJob(credentials, job, { output: 'raw' }, asTool);
		expect(raw).toMatchObject({ id: job.id, source: { name: 'Star.pes' } });
		expect(raw.events).toEqual(expect.any(Array));

		const selected = await getJob(
			credentials,
			job,
			{ output: 'selected', fields: ['outputFile', 'status'] },
			asTool,
		);
		expect(selected).toEqual({
			id: job.id,
			status: 'completed',
			outputFile: expect.stringMatching(/\.exp$/i),
		});

		const [listed] = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'getMany',
					returnAll: true,
					output: 'selected',
					fields: ['sourceFile'],
				},
				[{}],
				asTool,
			),
		);
		expect(listed.json).toEqual({ id: job.id, sourceFile: 'Star.pes' });
	});
});

describe('Get Usage in version 3', () => {
	const kept = [
		'creditBalance',
		'conversionCreditCost',
		'digitisingCreditCost',
		'previewRemaining',
		'limited',
		'dailyRemaining',
		'monthlyRemaining',
		'dailyResetsAt',
		'monthlyResetsAt',
		'subscriptionPlanSlug',
	];
	const usage = async (
		credentials: ApiCredentials,
		extra: IDataObject,
		options: { typeVersion: number; nodeType?: string },
	) => {
		const [item] = itemsOf(
			await run(
				credentials,
				{ resource: 'account', operation: 'getUsage', ...extra },
				[{}],
				options,
			),
		);
		return item.json;
	};

	test('Simplify keeps ten fields, the tool picks fields, version 2 returns every field', async () => {
		const credentials = await env.credentials();
		const everything = await usage(credentials, {}, { typeVersion: 2 });
		expect(Object.keys(everything).length).toBeGreaterThan(10);
		const simple = await usage(credentials, {}, v3);
		expect(Object.keys(simple)).toEqual(kept);
		for (const field of kept) expect(simple[field]).toEqual(everything[field] ?? null);
		expect(await usage(credentials, { simplify: false }, v3)).toEqual(everything);
		expect(Object.keys(await usage(credentials, {}, asTool))).toEqual(kept);
		expect(
			await usage(
				credentials,
				{ output: 'selected', fields: ['creditBalance', 'monthlyUsed'] },
				asTool,
			),
		).toEqual({
			creditBalance: everything.creditBalance,
			monthlyUsed: everything.monthlyUsed ?? null,
		});
		expect(await usage(credentials, { output: 'raw' }, asTool)).toEqual(everything);
	});
});
