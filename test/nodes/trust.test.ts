/**
 * What the node guarantees (README: What the node guarantees), against spec-valid variants of the service:
 * n8n-core's real executions and request helpers over real HTTP, a real sandbox behind a rewriting proxy.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { jobHints } from '../../nodes/Embroidery/helpers/jobHints';
import { defaultRetryPolicy, safeFileName, timeLimits } from '../../nodes/Embroidery/transport';
import { binaryBuffer, runNode } from '../support/n8n';
import type { ApiCredentials, InputItem, NodeRun } from '../support/n8n';
import { useSandbox, useVariantService } from '../support/fixtures';
import { startOtherOrigin } from '../support/variantService';
import { embroideryItem } from './support/sandboxRun';
import { createConversion } from '../support/jobParameters';
import { TestClock, useRealTime, useTestClock } from '../support/testClock';

jest.setTimeout(120_000);

// Waits for jobs, wait timeouts and backoffs run on one driven clock with the sandbox; "nothing hangs" keeps
// real time on purpose (a real stall, a real trickle, a real hang).
const clock = new TestClock();
const { sandbox, admin } = useSandbox({ time: clock });
useTestClock(clock, { busy: () => !sandbox.atRest() });
const variant = useVariantService(sandbox, [timeLimits]);

async function credentials(plan: 'credits' | 'subscription' = 'credits'): Promise<ApiCredentials> {
	const { key } = await admin.createAccountWithKey({ plan, creditBalance: 100, entitlements: 100 });
	return { apiKey: key, baseUrl: variant.baseUrl };
}

/** Create with Wait for Completion, nothing downloaded unless `extra` asks. */
const createAndWait = (extra: INodeParameters = {}): INodeParameters => createConversion({ waitForCompletion: true, timeout: 90, ...extra });

const stars = (count: number): InputItem[] => Array.from({ length: count }, () => embroideryItem('Star.DST'));

function itemsOf(result: NodeRun): INodeExecutionData[] {
	if (result.error) throw new Error(`The node failed: ${result.error.message} | ${String(result.error.description ?? '')}`);
	return result.items;
}

/** One completed conversion job of a fresh account, made through the node with the service answering as-is. */
async function completedJob(plan: 'credits' | 'subscription' = 'credits') {
	const creds = await credentials(plan);
	const [item] = itemsOf(await runNode({ credentials: creds, parameters: createAndWait(), input: stars(1) }));
	expect(item.json.status).toBe('completed');
	variant.reset();
	return { creds, id: String(item.json.id) };
}

describe('the API key goes to the service\'s own origin only', () => {
	it('refuses an API answer redirected to another origin, and the other origin never sees the key', async () => {
		const other = await startOtherOrigin();
		try {
			const creds = await credentials();
			variant.on((request) => (request.route === 'GET /usage' ? { redirectTo: `${other.origin}/api/v1/usage` } : undefined));
			const result = await runNode({ credentials: creds, parameters: { resource: 'account', operation: 'getUsage' }, input: [{}] });
			expect(result.error?.message).toContain(`redirected GET /usage to ${other.origin}`);
			expect(result.error?.description).toMatch(/only sent to the origin of the credential's 'Base URL'/);
			expect(other.requests).toHaveLength(0);
			expect(variant.of('GET /usage')).toHaveLength(1);
		} finally {
			await other.close();
		}
	});

	it('follows a signed file redirected to another origin without the key', async () => {
		const other = await startOtherOrigin();
		try {
			const { creds, id } = await completedJob();
			variant.on((request) =>
				request.route === 'GET /uploads/{id}/preview' ? { redirectTo: `${other.origin}/files/preview.png` } : undefined,
			);
			const [item] = itemsOf(
				await runNode({
					credentials: creds,
					parameters: { resource: 'job', operation: 'download', jobId: id, workflow: 'conversion', files: ['preview'] },
					input: [{}],
				}),
			);
			expect(other.requests.map((request) => request.url)).toEqual(['/files/preview.png']);
			expect(other.requests[0].headers.authorization).toBeUndefined();
			expect(JSON.stringify(other.requests[0].headers)).not.toContain(creds.apiKey);
			expect((await binaryBuffer(item.binary!.preview)).toString()).toBe('PNG bytes from the other origin');
			expect(item.binary!.preview.fileName).toBe('from-cdn.png');
		} finally {
			await other.close();
		}
	});

	it('follows a redirect within the service\'s origin with the key', async () => {
		const creds = await credentials();
		variant.on((request) =>
			request.route === 'GET /usage' && !request.url.includes('again') ? { redirectTo: '/api/v1/usage?again=1', status: 307 } : undefined,
		);
		const [item] = itemsOf(await runNode({ credentials: creds, parameters: { resource: 'account', operation: 'getUsage' }, input: [{}] }));
		expect(typeof item.json.creditBalance).toBe('number');
		expect(variant.of('GET /usage').map((request) => request.headers.authorization)).toEqual([
			`Bearer ${creds.apiKey}`,
			`Bearer ${creds.apiKey}`,
		]);
	});

	it('refuses a POST redirected within the service\'s origin: nothing is sent again, and the error says what to check', async () => {
		const creds = await credentials();
		variant.on((request) => (request.route === 'POST /jobs' ? { redirectTo: '/api/v1/jobs?again=1', status: 307 } : undefined));
		const result = await runNode({ credentials: creds, parameters: createConversion(), input: stars(1) });
		expect(result.error?.message).toBe(
			`The service redirected POST /jobs (HTTP 307) to ${variant.origin}/api/v1/jobs; the node did not send it again [item 0]`,
		);
		expect(result.error?.description).toMatch(/never sent twice \(an upload cannot even be resent as it was\): nothing went to the new address/);
		expect(result.error?.description).toMatch(/Check Job > Get Many for a job this request may have created/);
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(await createdIds(creds)).toEqual([]);
	});

	it('safeFileName drops C1 and bidi controls too', () => {
		expect(safeFileName('report\u0085\u009b.pes')).toBe('report.pes');
		expect(safeFileName('logo\u202egnp.exe')).toBe('logognp.exe');
		expect(safeFileName('\u2066a\u2067b\u2068c\u2069\u202a\u202b\u202c\u202d.dst')).toBe('abc.dst');
		expect(safeFileName('caf\u00e9 \u00a0\u2010.pes')).toBe('caf\u00e9 \u00a0\u2010.pes');
		expect(safeFileName('\u0080\u009f\u202e')).toBeUndefined();
	});

	it('keeps only the last path segment of a Content-Disposition file name, without control characters', async () => {
		expect(safeFileName('../../etc/passwd')).toBe('passwd');
		expect(safeFileName('..\\..\\boot.ini')).toBe('boot.ini');
		expect(safeFileName('a\u0000b\u0007c.pes')).toBe('abc.pes');
		expect(safeFileName('../..')).toBeUndefined();
		const { creds, id } = await completedJob();
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview'
				? { headers: { 'content-disposition': "attachment; filename*=UTF-8''..%2F..%2F.ssh%2Fevil%07.png" } }
				: undefined,
		);
		const [item] = itemsOf(
			await runNode({
				credentials: creds,
				parameters: { resource: 'job', operation: 'download', jobId: id, workflow: 'conversion', files: ['preview'] },
				input: [{}],
			}),
		);
		expect(item.binary!.preview.fileName).toBe('evil.png');
	});
});

describe('nothing the service created is lost', () => {
	it('a listing that fails after creation: each created job comes out as an error item with its id and workflow', async () => {
		const creds = await credentials();
		variant.on((request) => (request.route === 'GET /jobs' ? { status: 500, body: { message: 'Server Error' } } : undefined));
		const result = await runNode({
			credentials: creds,
			parameters: createAndWait(),
			input: stars(3),
			onError: 'continueRegularOutput',
		});
		const created = await createdIds(creds);
		expect(created).toHaveLength(3);
		expect(result.items.map((item) => item.json.id)).toEqual(created);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ workflow: 'conversion', error: expect.stringContaining('Server Error') });
			expect(item.json.description).toMatch(/do not create it again/);
		}

		const stopped = await runNode({ credentials: creds, parameters: createAndWait(), input: stars(3) });
		const all = await createdIds(creds);
		expect(all).toHaveLength(6);
		// Each job is named once: by the error it is about, or in the list of the others the run created.
		for (const id of all.slice(3)) expect(stopped.error?.description?.split(id)).toHaveLength(2);
	});

	it('a 422 on the second files[] request keeps the jobs of the first', async () => {
		const creds = await credentials();
		let posts = 0;
		variant.on((request) =>
			request.route === 'POST /jobs' && ++posts === 2
				? { status: 422, body: { message: 'The given data was invalid.', errors: { 'files.0': ['The file is not readable.'] } } }
				: undefined,
		);
		const twoFiles = (): InputItem => ({ binary: { ...embroideryItem('Star.DST', 'a').binary, ...embroideryItem('Star.DST', 'b').binary } });
		const result = await runNode({
			credentials: creds,
			parameters: { ...createAndWait({ binaryPropertyName: 'a, b' }), waitForCompletion: false },
			input: [twoFiles(), twoFiles()],
			onError: 'continueRegularOutput',
		});
		const created = await createdIds(creds);
		expect(created).toHaveLength(2);
		expect(result.items.map((item) => item.json.id ?? item.json.httpCode)).toEqual([...created, '422']);

		posts = 0;
		const stopped = await runNode({
			credentials: creds,
			parameters: { ...createAndWait({ binaryPropertyName: 'a, b' }), waitForCompletion: false },
			input: [twoFiles(), twoFiles()],
		});
		expect(stopped.error?.message).toMatch(/rejected the request/);
		for (const id of (await createdIds(creds)).slice(2)) expect(stopped.error?.description).toContain(id);
	});

	it('an answer naming fewer jobs than files were sent: the jobs it names reach the error items (Continue On Fail)', async () => {
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
			binary: { ...embroideryItem('Star.DST', 'a').binary, ...embroideryItem('Star.DST', 'b').binary, ...embroideryItem('Star.DST', 'c').binary },
		});
		const result = await runNode({
			credentials: creds,
			parameters: createAndWait({ binaryPropertyName: 'a, b, c' }),
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
		expect(second.json).toMatchObject({ id: named[1][0], workflow: 'conversion', error: 'The service accepted 1 job for 3 files [item 1]' });
		for (const [index, item] of result.items.entries()) {
			for (const id of named[index]) expect(item.json.description).toContain(`${id} (conversion)`);
			expect(item.json.description).toMatch(/do not create (it|them) again/);
		}
	});

	it('at the wait\'s timeout, finished jobs are delivered with their files and only the unfinished one is an error', async () => {
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
			parameters: createAndWait({ timeout: 30, downloadResults: ['preview'] }),
			input: stars(2),
			onError: 'continueRegularOutput',
		});
		expect(result.items).toHaveLength(2);
		const [finished, unfinished] = result.items;
		expect(finished.json).toMatchObject({ status: 'completed', files: [expect.objectContaining({ kind: 'preview' })] });
		expect(finished.binary?.preview).toBeDefined();
		expect(unfinished.json).toMatchObject({ id: stuck, workflow: 'conversion', error: `Job ${stuck} is still processing after 30 s [item 1]` });
	});

	it('an unlock whose answer is lost is reported as unknown, with its id, and never sent again', async () => {
		const creds = await credentials('subscription');
		variant.on((request) => (request.route.endsWith('/unlock') ? { dropAnswer: true } : undefined));
		const result = await runNode({
			credentials: creds,
			parameters: createAndWait({ downloadResults: ['outputs'], unlockBeforeDownload: true }),
			input: stars(1),
			onError: 'continueRegularOutput',
		});
		const [id] = await createdIds(creds);
		expect(result.items[0].json).toMatchObject({ id, workflow: 'conversion', error: expect.stringMatching(/Unlock state unknown: the answer to the unlock request was lost/) });
		expect(result.items[0].json.description).toMatch(/Check the job with Job > Get/);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		variant.reset();
		const [got] = itemsOf(
			await runNode({ credentials: creds, parameters: { resource: 'job', operation: 'get', jobId: id, workflow: 'conversion' }, input: [{}] }),
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

	it('Job > Unlock of one job named by two items sends one unlock; both items get its answer, or its error', async () => {
		const { creds, id } = await completedJob('subscription');
		const unlock = { resource: 'job', operation: 'unlock', jobId: id, workflow: 'conversion' };
		const [first, second] = itemsOf(await runNode({ credentials: creds, parameters: unlock, input: [{}, {}] }));
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		for (const item of [first, second]) expect(item.json).toMatchObject({ id, workflow: 'conversion', downloadsUnlocked: true });
		expect(second.json.message).toBe(first.json.message);
		expect(typeof first.json.message).toBe('string');

		const other = await completedJob('subscription');
		variant.on((request) => (request.route.endsWith('/unlock') ? { dropAnswer: true } : undefined));
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
	});
});

/**
 * Runs the node, stops the execution while its request to `route` is `open` (hanging or stalled), and checks
 * that the run returns at once with no item and that the service sees the client close that request.
 */
async function stopWhileOpen(creds: ApiCredentials, parameters: INodeParameters, route: string, open: string): Promise<void> {
	const controller = new AbortController();
	const running = runNode({ credentials: creds, parameters, input: [{}], signal: controller.signal });
	await until(() => variant.of(route)[0]?.handling === open);
	const stoppedAt = Date.now();
	controller.abort();
	const result = await running;
	expect(Date.now() - stoppedAt).toBeLessThan(2000);
	expect(result.items).toHaveLength(0);
	await until(() => variant.of(route)[0].handling !== open, 2000);
	expect(variant.of(route)[0].handling).toBe(`${open}, then closed by the client`);
}

/** Waits until `done()` holds, checking every 50 ms, for at most `limitMs`. */
async function until(done: () => boolean, limitMs = 5000): Promise<void> {
	for (let waited = 0; !done() && waited < limitMs; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Job ids of the account, oldest first, read through the sandbox as-is (not through the node). */
async function createdIds(creds: ApiCredentials): Promise<string[]> {
	const response = await fetch(`${sandbox.baseUrl}/jobs`, { headers: { Authorization: `Bearer ${creds.apiKey}`, Accept: 'application/json' } });
	const body = (await response.json()) as { data: Array<{ id: string }> };
	return body.data.map((job) => job.id).reverse();
}

describe.each(['lean', 'extra'] as const)('a service that answers %s', (shape) => {
	const describeShape = shape === 'lean' ? 'only the spec\'s required fields' : 'unknown fields everywhere and null wherever allowed';

	it(`Create -> Wait -> Download Preview works (${describeShape}); listed jobs without files cost one detail each`, async () => {
		const creds = await credentials();
		variant.answer(shape);
		const items = itemsOf(
			await runNode({ credentials: creds, parameters: createAndWait({ downloadResults: ['preview'] }), input: stars(2) }),
		);
		expect(items.map((item) => item.json.status)).toEqual(['completed', 'completed']);
		for (const item of items) expect((await binaryBuffer(item.binary!.preview)).length).toBeGreaterThan(100);
		// One detail per job, for its warnings (Show Warnings is on) and its files alike.
		const detailed = variant.of('GET /jobs/conversion/{id}').map((request) => request.url.split('/').pop());
		expect(detailed.sort()).toEqual(items.map((item) => String(item.json.id)).sort());
	});

	it(`every other operation works (${describeShape})`, async () => {
		const { creds, id } = await completedJob('subscription');
		variant.answer(shape);
		const job = { jobId: id, workflow: 'conversion' };
		const run = async (parameters: INodeParameters) => itemsOf(await runNode({ credentials: creds, parameters, input: [{}] }));
		const [got] = await run({ resource: 'job', operation: 'get', ...job, simplify: false });
		expect(got.json).toMatchObject({ id, status: 'completed' });
		// The node met the nulls: they pass through to the item.
		if (shape === 'extra') {
			expect(got.json).toMatchObject({ provider: null, metrics: null, unlock: null, failureCode: null, createdAt: null, completedAt: null });
			expect(got.json.source).toMatchObject({ previewUrl: null });
		}
		expect((await run({ resource: 'job', operation: 'getMany', returnAll: true, filters: {} })).map((item) => item.json.id)).toContain(id);
		expect((await run({ resource: 'job', operation: 'unlock', ...job }))[0].json).toMatchObject({ id, downloadsUnlocked: true });
		const [downloaded] = await run({ resource: 'job', operation: 'download', ...job, files: ['outputs', 'preview'], options: {} });
		expect(downloaded.binary?.data).toBeDefined();
		expect(downloaded.binary?.preview).toBeDefined();
		const [usage] = await run({ resource: 'account', operation: 'getUsage' });
		expect(typeof usage.json.creditBalance).toBe('number');
		if (shape === 'extra') expect(usage.json).toMatchObject({ subscriptionPlanSlug: null, subscriptionRenewsAt: null, dailyResetsAt: null });
		expect((await run({ resource: 'format', operation: 'getMany' })).length).toBeGreaterThan(0);
		// A completed job can't be retried: the 409 is explained with the job's state, read from a ${shape} answer.
		const retried = await runNode({ credentials: creds, parameters: { resource: 'job', operation: 'retry', ...job }, input: [{}] });
		expect(retried.error?.message).toMatch(new RegExp(`can't be retried: .*\\(job ${id} is completed\\)`));
	});
});

describe('nothing hangs (real time)', () => {
	useRealTime(clock);

	it('a service that never answers fails each try after the JSON time limit, a bounded number of times', async () => {
		const creds = await credentials();
		timeLimits.jsonMs = 300;
		variant.on((request) => (request.route === 'GET /usage' ? { hang: true } : undefined));
		const started = Date.now();
		const result = await runNode({ credentials: creds, parameters: { resource: 'account', operation: 'getUsage' }, input: [{}] });
		expect(result.error?.message).toBe('The service could not be reached: no answer within 0.3 s [item 0]');
		expect(variant.of('GET /usage')).toHaveLength(defaultRetryPolicy.maxAttempts);
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	it('stopping the execution while a JSON request hangs returns at once and closes the request', async () => {
		const creds = await credentials();
		variant.on((request) => (request.route === 'GET /usage' ? { hang: true } : undefined));
		await stopWhileOpen(creds, { resource: 'account', operation: 'getUsage' }, 'GET /usage', 'never answered');
		expect(variant.of('GET /usage')).toHaveLength(1);
	});

	it('a download that keeps trickling succeeds however long it takes: the limit is between chunks, not in total', async () => {
		const { creds, id } = await completedJob();
		const download = { resource: 'job', operation: 'download', jobId: id, workflow: 'conversion', files: ['preview'] };
		const [whole] = itemsOf(await runNode({ credentials: creds, parameters: download, input: [{}] }));
		timeLimits.fileIdleMs = 1000;
		variant.on((request) =>
			request.route === 'GET /uploads/{id}/preview' ? { trickle: { chunks: 7, everyMs: timeLimits.fileIdleMs / 2 } } : undefined,
		);
		const started = Date.now();
		const [trickled] = itemsOf(await runNode({ credentials: creds, parameters: download, input: [{}] }));
		expect(Date.now() - started).toBeGreaterThanOrEqual(3 * timeLimits.fileIdleMs);
		expect(variant.of('GET /uploads/{id}/preview').map((request) => request.handling)).toEqual(['passed', 'trickled in 7 chunks']);
		expect((await binaryBuffer(trickled.binary!.preview)).equals(await binaryBuffer(whole.binary!.preview))).toBe(true);
	});

	it('a download that stops sending bytes fails after the idle limit', async () => {
		const { creds, id } = await completedJob();
		timeLimits.fileIdleMs = 700;
		variant.on((request) => (request.route === 'GET /uploads/{id}/preview' ? { stallAfterBytes: 20 } : undefined));
		const started = Date.now();
		const result = await runNode({
			credentials: creds,
			parameters: { resource: 'job', operation: 'download', jobId: id, workflow: 'conversion', files: ['preview'] },
			input: [{}],
		});
		expect(result.error?.message).toMatch(/No data arrived for 1 s while downloading/);
		expect(Date.now() - started).toBeLessThan(10_000);
		// The failed download does not leave its connection open.
		await until(() => variant.of('GET /uploads/{id}/preview')[0].handling !== 'stalled', 2000);
		expect(variant.of('GET /uploads/{id}/preview')[0].handling).toBe('stalled, then closed by the client');
	});

	it('stopping the execution mid-download closes the open request at once', async () => {
		const { creds, id } = await completedJob();
		variant.on((request) => (request.route === 'GET /uploads/{id}/preview' ? { stallAfterBytes: 20 } : undefined));
		await stopWhileOpen(
			creds,
			{ resource: 'job', operation: 'download', jobId: id, workflow: 'conversion', files: ['preview'] },
			'GET /uploads/{id}/preview',
			'stalled',
		);
	});
});

describe('warnings reach the user', () => {
	it('by default each completed job\'s warnings are on its item and become execution hints', async () => {
		const creds = await credentials();
		variant.on((request) =>
			request.route === 'GET /jobs/conversion/{id}'
				? {
						rewrite: (body) => {
							(body.job as Record<string, unknown>).warnings = ['Thread 3 is approximated by the nearest colour.'];
							return body;
						},
					}
				: undefined,
		);
		const result = await runNode({ credentials: creds, parameters: createAndWait(), input: stars(1) });
		const [item] = itemsOf(result);
		expect(item.json.warnings).toEqual(['Thread 3 is approximated by the nearest colour.']);
		const hints = result.run.data.resultData.runData.Embroidery[0].hints;
		expect(hints).toEqual([
			{
				message: `Job ${String(item.json.id)} has 1 warning: Thread 3 is approximated by the nearest colour. Check the design before you stitch it.`,
				type: 'warning',
				location: 'outputPane',
			},
			{
				message: `The machine files of job ${String(item.json.id)} are locked. Use Job > Unlock (it spends a subscription entitlement or credits), then download the files.`,
				type: 'info',
				location: 'outputPane',
			},
		]);
	});

	it('jobHints: one hint per job with warnings, the rest summed up', () => {
		const items = Array.from({ length: 12 }, (_, index) => ({
			json: { id: `J${index}`, status: 'completed', downloadsUnlocked: true, warnings: index === 0 ? [] : ['w'] },
		}));
		const hints = jobHints([...items, { json: { error: 'x' } }]);
		expect(hints).toHaveLength(11);
		expect(hints[0].message).toBe('Job J1 has 1 warning: w Check the design before you stitch it.');
		expect(hints[10].message).toBe('1 more jobs have warnings; see "warnings" on their items.');
	});
});
