import { binaryBuffer } from '../../support/binaryData';
import { loadOptions } from '../../support/editorMethods';
import type { InputItem } from '../../support/nodeRun';
import { artworkItem, embroideryItem, itemsOf, run } from '../support/nodeItems';
import { fixture } from '../../support/embroideryFiles';
import { useSandbox } from '../../support/sandboxFixture';
import { createAndWait, createConversion } from '../../support/jobParameters';

const env = useSandbox();

describe('Format and Account through n8n against the sandbox', () => {
	test('Format > Get Many lists formats; the summary adds the artwork inputs', async () => {
		const credentials = await env.credentials();
		const items = itemsOf(
			await run(credentials, {
				resource: 'format',
				operation: 'getMany',
				filters: { writableOnly: true },
			}),
		);
		expect(items.length).toBeGreaterThanOrEqual(5);
		expect(items.every((item) => item.json.writable === true)).toBe(true);
		expect(items.map((item) => item.json.format)).toEqual(
			expect.arrayContaining(['dst', 'pes', 'jef']),
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const [summary] = itemsOf(
			await run(credentials, { resource: 'format', operation: 'getMany', output: 'summary' }),
		);
		expect(summary.json.artworkInputs).toEqual(expect.arrayContaining(['png', 'svg', 'webp']));
	});

	test('the Output Format list of a node with no credential chosen yet says to choose one', async () => {
		await expect(loadOptions('getWritableFormats', undefined)).rejects.toThrow(
			'Choose an Embroidery API credential first',
		);
	});

	test('the Output Format list holds writable formats with their warnings', async () => {
		const credentials = await env.credentials();
		const options = await loadOptions('getWritableFormats', credentials);
		expect(options.map((option) => option.value)).toEqual(expect.arrayContaining(['dst', 'pes']));
		expect(
			options.some(
				(option) => typeof option.description === 'string' && option.description.length > 0,
			),
		).toBe(true);
	});

	test('Account > Get Usage returns the free usage of the key owner', async () => {
		const credentials = await env.credentials({ plan: 'credits', creditBalance: 42 });
		const [usage] = itemsOf(await run(credentials, { resource: 'account', operation: 'getUsage' }));
		expect(usage.json).toMatchObject({ creditBalance: 42, limited: false });
	});
});

describe('Job lifecycle through n8n against the sandbox', () => {
	test('Create with Wait for Completion and preview download: upload -> wait -> binary in one node', async () => {
		const credentials = await env.credentials();
		const items = itemsOf(
			await run(credentials, createAndWait(), [
				embroideryItem('Star.DST'),
				embroideryItem('Star.JEF'),
			]),
		);
		expect(items).toHaveLength(2);
		items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({
				workflow: 'conversion',
				status: 'completed',
				downloadsUnlocked: false,
			});
			expect(item.json.id).toMatch(/^[0-9A-Z]{26}$/);
			expect(item.binary?.preview?.mimeType).toMatch(/^image\//);
		});
		expect(items[0].json.sourceFile).toBe('Star.DST');
		const preview = await binaryBuffer(items[0].binary!.preview);
		expect(preview.length).toBeGreaterThan(100);
	});

	test('Create with Unlock Before Download returns the machine file itself; unlocking is charged', async () => {
		const credentials = await env.credentials({ plan: 'subscription', entitlements: 2 });
		const [item] = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'create',
					workflow: 'conversion',
					binaryPropertyName: 'data',
					format: 'jef',
					waitForCompletion: true,
					timeout: 120,
					downloadResults: ['outputs', 'preview'],
					unlockBeforeDownload: true,
				},
				[embroideryItem('Star.pes')],
			),
		);
		expect(item.json).toMatchObject({
			workflow: 'conversion',
			status: 'completed',
			downloadsUnlocked: true,
		});
		expect(item.binary?.data.fileName).toMatch(/\.jef$/i);
		expect((await binaryBuffer(item.binary!.data)).length).toBeGreaterThan(100);
		expect(item.binary?.preview.mimeType).toMatch(/^image\//);
		expect(item.json.unlock).toMatchObject({
			unlocked: true,
			method: expect.stringMatching(/subscription|entitlement/),
		});
	});

	test('Combine Items batches sources into files[] requests and pairs each job with its item', async () => {
		const credentials = await env.credentials();
		// Three items with two machine files each: six sources, sent together as files[].
		const pairs = [
			['Star.DST', 'Star.EXP'],
			['Star.JEF', 'Star.XXX'],
			['Star.u01', 'Star.DST'],
		];
		const input = pairs.map(([first, second]) => ({
			binary: {
				data: { data: fixture(first), fileName: first, mimeType: 'application/octet-stream' },
				second: { data: fixture(second), fileName: second, mimeType: 'application/octet-stream' },
			},
		}));
		const items = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'create',
					workflow: 'conversion',
					binaryPropertyName: 'data, second',
					format: 'pes',
					options: { batching: 'combine' },
				},
				input,
			),
		);
		expect(items).toHaveLength(6);
		expect(items.map((item) => item.pairedItem)).toEqual(
			[0, 0, 1, 1, 2, 2].map((item) => ({ item })),
		);
		expect(items.map((item) => item.json.sourceBinaryField)).toEqual([
			'data',
			'second',
			'data',
			'second',
			'data',
			'second',
		]);
		expect(items.map((item) => item.json.sourceFile)).toEqual(pairs.flat());
		expect(new Set(items.map((item) => item.json.id)).size).toBe(6);
		expect(
			items.every((item) => item.json.status === 'queued' && item.json.workflow === 'conversion'),
		).toBe(true);
	});

	test('Digitising artwork, Wait for Completion of many ids, Get, Get Many with filters', async () => {
		const credentials = await env.credentials();
		const created = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'create',
					workflow: 'digitising',
					binaryPropertyName: 'data',
					format: 'dst',
					widthMm: 60,
					colourCount: 3,
					threadPaletteKey: 'madeira',
				},
				[artworkItem(), artworkItem()],
			),
		);
		expect(created.map((item) => item.json.workflow)).toEqual(['digitising', 'digitising']);
		const ids = created.map((item) => String(item.json.id));

		const waited = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'waitForCompletion',
					jobId: ids.join(', '),
					workflow: 'digitising',
					timeout: 180,
					showWarnings: false,
				},
				[{ json: {} }],
			),
		);
		expect(waited.map((item) => item.json.id)).toEqual(ids);
		expect(
			waited.every(
				(item) =>
					item.json.status === 'completed' &&
					item.pairedItem &&
					(item.pairedItem as { item: number }).item === 0,
			),
		).toBe(true);
		// With Show Warnings off (on by default, test/nodes/Embroidery/helpers/jobHints.test.ts), a completed job
		// comes from the listing alone: metrics and signed URLs, no warnings or events.
		expect(waited[0].json.metrics).toBeTruthy();
		expect(waited[0].json.preview).toMatchObject({
			previewUrl: expect.stringContaining('/uploads/'),
		});
		expect(waited[0].json).not.toHaveProperty('warnings');
		const [detailed] = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'waitForCompletion',
					jobId: ids[0],
					workflow: 'digitising',
					timeout: 60,
					includeFullJob: true,
				},
				[{ json: {} }],
			),
		);
		expect(Array.isArray(detailed.json.warnings)).toBe(true);
		expect(Array.isArray(detailed.json.events)).toBe(true);

		const [got] = itemsOf(
			await run(
				credentials,
				{
					resource: 'job',
					operation: 'get',
					jobId: '={{ $json.id }}',
					workflow: '={{ $json.workflow }}',
				},
				[{ json: { id: ids[0], workflow: 'digitising' } }],
			),
		);
		expect(got.json).toMatchObject({ id: ids[0], workflow: 'digitising', status: 'completed' });
		expect(got.json.metrics).toBeTruthy();

		const listed = itemsOf(
			await run(credentials, {
				resource: 'job',
				operation: 'getMany',
				returnAll: false,
				limit: 1,
				filters: { status: ['completed'], workflow: 'digitising' },
			}),
		);
		expect(listed).toHaveLength(1);
		expect(listed[0].json).toMatchObject({
			workflow: 'digitising',
			kind: 'digitising',
			status: 'completed',
		});
	});

	test('Unlock, then Download outputs, preview and source; File > Download of a signed URL', async () => {
		const credentials = await env.credentials({ plan: 'credits', creditBalance: 10 });
		const [job] = itemsOf(
			await run(credentials, createConversion({ waitForCompletion: true, timeout: 120 }), [
				embroideryItem('Star.DST'),
			]),
		);
		const ref = { json: { id: job.json.id, workflow: job.json.workflow } };

		const locked = await run(
			credentials,
			{ resource: 'job', operation: 'download', files: ['outputs'] },
			[ref],
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(locked.items[0].json.error).toMatch(/locked/);
		expect(locked.items[0].json.description).toMatch(/Job > Unlock/);

		const [unlocked] = itemsOf(
			await run(credentials, { resource: 'job', operation: 'unlock' }, [ref]),
		);
		expect(unlocked.json).toMatchObject({
			id: job.json.id,
			workflow: 'conversion',
			downloadsUnlocked: true,
		});
		const usage = await env.admin.usage(credentials.accountId);
		expect(usage.creditBalance).toBeLessThan(10);

		const [downloaded] = itemsOf(
			await run(
				credentials,
				{ resource: 'job', operation: 'download', files: ['outputs', 'preview', 'source'] },
				[ref],
			),
		);
		const output = await binaryBuffer(downloaded.binary!.data);
		expect(output.subarray(0, 4).toString('latin1')).toBe('#PES');
		expect(downloaded.binary!.data.fileName).toMatch(/\.pes$/i);
		expect(downloaded.binary!.preview.mimeType).toMatch(/^image\//);
		expect((await binaryBuffer(downloaded.binary!.source)).equals(fixture('Star.DST'))).toBe(true);

		const outputs = unlocked.json.outputs as Array<{ downloadUrl: string }>;
		const [file] = itemsOf(
			await run(credentials, {
				resource: 'file',
				operation: 'download',
				url: outputs[0].downloadUrl,
				binaryPropertyName: 'machineFile',
			}),
		);
		expect((await binaryBuffer(file.binary!.machineFile)).equals(output)).toBe(true);

		// Once expired, an old signed URL is refused with a pointer to fresh URLs; Job > Download gets them.
		await env.admin.advanceClock(3600);
		const stale = await run(
			credentials,
			{ resource: 'file', operation: 'download', url: outputs[0].downloadUrl },
			[{}],
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(stale.items[0].json).toMatchObject({ httpCode: '403' });
		expect(stale.items[0].json.error).toMatch(
			/The file link was refused: The signed URL has expired/,
		);
		expect(stale.items[0].json.description).toMatch(
			/Signed file links expire .* Job > Download .* fetch fresh links from the job/,
		);
		expect(stale.items[0].json.description).not.toMatch(/abilit/);
		const [fresh] = itemsOf(
			await run(credentials, { resource: 'job', operation: 'download', files: ['outputs'] }, [ref]),
		);
		expect((await binaryBuffer(fresh.binary!.data)).equals(output)).toBe(true);
	});

	test('Retry: a failed job is queued again; a completed one gets a 409 naming its state', async () => {
		const credentials = await env.credentials();
		await env.admin.setFaults({ engineFailureRate: 1 });
		let failed;
		try {
			[failed] = itemsOf(
				await run(credentials, createConversion({ waitForCompletion: true, timeout: 120 }), [
					embroideryItem('Star.DST'),
				]),
			);
		} finally {
			await env.admin.clearFaults();
		}
		expect(failed.json.status).toBe('failed');
		expect(failed.json.failureReason).toBeTruthy();
		const ref = { json: { id: failed.json.id, workflow: 'conversion' } };
		const [retried] = itemsOf(
			await run(credentials, { resource: 'job', operation: 'retry' }, [ref]),
		);
		expect(retried.json).toMatchObject({
			id: failed.json.id,
			workflow: 'conversion',
			status: 'queued',
		});

		const [done] = itemsOf(
			await run(credentials, { resource: 'job', operation: 'waitForCompletion', timeout: 120 }, [
				ref,
			]),
		);
		expect(done.json.status).toBe('completed');
		const again = await run(credentials, { resource: 'job', operation: 'retry' }, [ref], {
			onError: 'continueRegularOutput',
		});
		expect(again.items[0].json).toMatchObject({ httpCode: '409' });
		expect(again.items[0].json.error).toMatch(/is completed\)/);
		expect(again.items[0].json.description).toMatch(/Only failed jobs can be retried/);
	});

	test('a 422 from the service lists the field; the API key never reaches the output', async () => {
		const credentials = await env.credentials();
		const result = await run(
			credentials,
			createConversion({ format: 'dst' }),
			[embroideryItem('Star.DST')],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.items[0].json.httpCode).toBe('422');
		expect(result.items[0].json.description).toMatch(/format: /);
		expect(JSON.stringify(result.run)).not.toContain(credentials.apiKey);
	});

	test('a file that is no machine file is named in a sentence that ends with one full stop', async () => {
		const notADesign: InputItem = {
			binary: {
				data: {
					data: Buffer.from('not stitches'),
					fileName: 'notes.dst',
					mimeType: 'application/octet-stream',
				},
			},
		};
		const result = await run(
			await env.credentials(),
			createConversion({ format: 'exp' }),
			[notADesign],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.items[0].json.httpCode).toBe('422');
		expect(result.items[0].json.description).toMatch(
			new RegExp(
				'notes\\.dst is not a readable embroidery machine file: its name says Tajima DST, but its ' +
					'content is not Tajima DST\\. This service reads [^.]+ Melco EXP\\.$',
			),
		);
	});

	test('a limited free account with Combine Items is told to send one request per item, which then works', async () => {
		const credentials = await env.credentials({ plan: 'free', previewRemaining: 5 });
		const parameters = createConversion();
		const input = [embroideryItem('Star.DST'), embroideryItem('Star.JEF')];
		const combined = await run(
			credentials,
			{ ...parameters, options: { batching: 'combine' } },
			input,
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(combined.items).toHaveLength(2);
		for (const item of combined.items) {
			expect(item.json.httpCode).toBe('422');
			expect(item.json.error).toMatch(
				/^This account is on limited free processing, which accepts one file per request/,
			);
			expect(item.json.description).toMatch(
				/^Set Options > Batching to "One Request per Item" \(it is "Combine Items", which sent 2 files together\)/,
			);
		}
		const perItem = itemsOf(
			await run(credentials, { ...parameters, options: { batching: 'perItem' } }, input),
		);
		expect(perItem.map((item) => item.json.status)).toEqual(['queued', 'queued']);
	});

	test('a key without the needed ability gets an error that names the ability', async () => {
		const credentials = await env.credentials({ plan: 'credits' }, ['formats:read']);
		const result = await run(credentials, { resource: 'account', operation: 'getUsage' });
		expect(result.error?.message).toMatch(/Forbidden/);
		expect(result.error?.description).toMatch(/usage:read/);
		expect(JSON.stringify(result.run)).not.toContain(credentials.apiKey);
	});
});

describe('the transport policy against the sandbox', () => {
	const later = (ms: number, action: () => Promise<unknown>) =>
		new Promise<void>((resolve, reject) =>
			setTimeout(() => action().then(() => resolve(), reject), ms),
		);

	test('429s (Retry-After: 1) are waited out until the service answers', async () => {
		const credentials = await env.credentials({ plan: 'credits', creditBalance: 7 });
		await env.admin.setFaults({ rate429: 1 });
		const [result] = await Promise.all([
			run(credentials, { resource: 'account', operation: 'getUsage' }),
			later(1500, () => env.admin.clearFaults()),
		]);
		expect(itemsOf(result)[0].json.creditBalance).toBe(7);
	});

	test('a 503 on a read is retried; on job creation it is not, and no job is created', async () => {
		const credentials = await env.credentials();
		await env.admin.setFaults({ rate5xx: 1 });
		try {
			const [read] = await Promise.all([
				run(credentials, { resource: 'format', operation: 'getMany' }),
				later(500, () => env.admin.clearFaults()),
			]);
			expect(itemsOf(read).length).toBeGreaterThan(0);

			await env.admin.setFaults({ rate5xx: 1 });
			const created = await run(credentials, createConversion(), [embroideryItem('Star.DST')], {
				onError: 'continueRegularOutput',
			});
			expect(created.items[0].json).toMatchObject({ httpCode: '503' });
			expect(created.items[0].json.description).toMatch(/not repeated automatically/);
		} finally {
			await env.admin.clearFaults();
		}
		const listed = itemsOf(
			await run(credentials, { resource: 'job', operation: 'getMany', returnAll: true }),
		);
		expect(listed).toHaveLength(0);
	});
});
