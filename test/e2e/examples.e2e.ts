/**
 * The example workflows in examples/*.json, imported as they ship into a running n8n and run there as the
 * editor runs them (`npm run demo` does the same): the manual ones with "Execute workflow", the webhook and
 * the trigger published.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import {
	exampleFolders,
	importExamples,
	runExample,
	runTriggerExample,
	type ExampleFolders,
} from '../../scripts/demo';
import { exampleIds, readExamples, serveSampleFiles, signBody } from '../../scripts/examples';
import { fetchN8n, nodeItems, type LocalN8n, type WorkflowExport } from '../../scripts/n8n';
import { waitForJobEnd } from '../../scripts/sandbox-client';
import { simplifiedJobFields } from '../../nodes/Embroidery/helpers/simplify';
import { measurePattern, readPattern } from '../../sandbox/engine';
import {
	e2eOwner,
	openEnvironment,
	realTimeSetUpMs,
	type SandboxInfo,
} from './support/environment';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the example workflows', () => {
	let n8n: LocalN8n;
	let root: string;
	let folders: ExampleFolders;
	let sandbox: SandboxInfo;
	let workflows: Map<string, WorkflowExport>;

	beforeAll(async () => {
		const environment = await openEnvironment();
		({ n8n, root, sandbox } = environment);
		folders = exampleFolders(join(environment.filesDir, 'examples'));
		// Over n8n's REST API, as the editor saves a workflow: no n8n CLI process (each loads all of n8n).
		await n8n.start();
		await n8n.signIn(e2eOwner);
		const examples = await readExamples();
		const imported = await importExamples(n8n, examples, environment.sandbox, folders);
		workflows = new Map(examples.map(({ slug }, index) => [slug, imported[index]]));
	}, realTimeSetUpMs);

	afterAll(async () => {
		// What this file published, openEnvironment unpublishes before the next file of this worker starts.
		await n8n?.stop();
	});

	it('converts the sample JEF design to DST: upload, wait, unlock, download, save', async () => {
		const slug = 'convert-embroidery-file';
		const { outcome } = await runExample(n8n, slug, workflows.get(slug)!, join(root, 'demo'));

		expect(outcome.error).toBeUndefined();
		expect(outcome.status).toBe('success');
		expect(outcome.jobs).toEqual([
			expect.objectContaining({
				workflow: 'conversion',
				status: 'completed',
				downloadsUnlocked: true,
			}),
		]);
		const machineFile = outcome.files.find((file) => file.field === 'data')!;
		expect(machineFile.fileName).toMatch(/\.dst$/i);
		const bytes = await readFile(machineFile.path);
		const source = readPattern(await readFile(join(folders.inbox, 'Star.JEF')), 'jef');
		expect(measurePattern(readPattern(bytes, 'dst')).stitchCount).toBeGreaterThanOrEqual(
			measurePattern(source).stitchCount * 0.95,
		);
		expect(await readFile(join(folders.delivered(slug), machineFile.fileName))).toEqual(bytes);
		const preview = outcome.files.find((file) => file.field === 'preview')!;
		expect((await readFile(preview.path)).subarray(0, 8)).toEqual(pngSignature);
	});

	it('digitises the sample order at 80 mm in at most 3 colours and saves the PES for production', async () => {
		const slug = 'shop-order-to-machine-file';
		const { outcome } = await runExample(n8n, slug, workflows.get(slug)!, join(root, 'demo'));

		expect(outcome.error).toBeUndefined();
		expect(outcome.jobs).toEqual([
			expect.objectContaining({
				workflow: 'digitising',
				status: 'completed',
				downloadsUnlocked: true,
			}),
		]);
		const saved = await readFile(join(folders.delivered(slug), 'order-SAMPLE-1001.pes'));
		const metrics = measurePattern(readPattern(saved, 'pes'));
		expect(metrics.widthMm).toBeGreaterThan(70);
		expect(metrics.widthMm).toBeLessThanOrEqual(81);
		// width_mm is the finished width: the needle extent in the saved machine file, within 0.5 mm.
		expect(Math.abs(metrics.widthMm - 80)).toBeLessThanOrEqual(0.5);
		expect(metrics.colourCount).toBeGreaterThanOrEqual(1);
		expect(metrics.colourCount).toBeLessThanOrEqual(3);
		expect(metrics.stitchCount).toBeGreaterThan(100);
	});

	describe('published', () => {
		beforeAll(async () => {
			await n8n.activateWorkflows([exampleIds.shopOrder, exampleIds.finishedJobs]);
		}, realTimeSetUpMs);

		it('answers a signed shop order posted to its webhook with the saved machine file', async () => {
			const samples = await serveSampleFiles();
			try {
				const order = JSON.stringify({
					orderId: 'A-2001',
					artworkUrl: `${samples.url}/logo.svg`,
					widthMm: 60,
					colourCount: 2,
					format: 'dst',
				});
				const response = await fetchN8n(`${n8n.url}/webhook/embroidery-order`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'X-Shop-Signature': signBody(order) },
					body: order,
					signal: AbortSignal.timeout(180_000),
				});
				expect(response.status).toBe(200);
				expect(await response.json()).toEqual(
					expect.objectContaining({ status: 'completed', downloadsUnlocked: true }),
				);
			} finally {
				samples.server.close();
			}
			const saved = await readFile(
				join(folders.delivered('shop-order-to-machine-file'), 'order-A-2001.dst'),
			);
			const metrics = measurePattern(readPattern(saved, 'dst'));
			expect(metrics.widthMm).toBeGreaterThan(50);
			expect(metrics.widthMm).toBeLessThanOrEqual(61);
			expect(Math.abs(metrics.widthMm - 60)).toBeLessThanOrEqual(0.5);
		});

		it('stores a completed job and reports and retries a failed one when the trigger emits them', async () => {
			const slug = 'act-on-finished-jobs';
			const workflow = workflows.get(slug)!;
			const { outcome, runs, jobs } = await runTriggerExample(
				n8n,
				sandbox,
				slug,
				workflow,
				folders,
			);

			expect(outcome.error).toBeUndefined();
			expect(outcome.status).toBe('success');
			// The example's trigger is version 1.2: its items are Simplify's ten fields, every one the workflow reads.
			// A later poll may already have emitted the retried job's completion: keep each job's first ending.
			const emitted = new Map<unknown, Record<string, unknown>>();
			for (const item of runs.flatMap((run) => nodeItems(run, 'Job finished'))) {
				const key = item.json.id;
				if (!emitted.has(key)) emitted.set(key, item.json);
			}
			const completed = emitted.get(jobs.completed)!;
			expect(completed).toMatchObject({
				workflow: 'conversion',
				status: 'completed',
				downloadsUnlocked: expect.any(Boolean),
				previewUrl: expect.stringMatching(/^http/),
				warnings: expect.any(Array),
				failureCode: null,
				failureReason: null,
				attemptCount: 1,
			});
			// The machine file's link comes once the job is unlocked.
			expect(completed.outputUrl).toEqual(
				completed.downloadsUnlocked ? expect.stringMatching(/^http/) : null,
			);
			expect(emitted.get(jobs.failed)).toMatchObject({
				workflow: 'conversion',
				status: 'failed',
				downloadsUnlocked: false,
				outputUrl: null,
				failureCode: 'engine_error',
				failureReason: expect.stringContaining('engine failed'),
				attemptCount: 1,
			});
			for (const json of [completed, emitted.get(jobs.failed)!]) {
				expect(Object.keys(json).sort()).toEqual([...simplifiedJobFields].sort());
				expect(json).not.toHaveProperty('source');
				// Signed links only where Simplify names them, never inside another field.
				const others = Object.entries(json).filter(
					([key]) => !['outputUrl', 'previewUrl'].includes(key),
				);
				expect(JSON.stringify(others)).not.toMatch(/signature=/);
			}
			// The demo unlocks its job, but a poll may see it before that: the example then stores its free preview.
			const delivered = (await readdir(folders.delivered(slug))).filter((name) =>
				name.startsWith(`${jobs.completed}-`),
			);
			if (completed.downloadsUnlocked) {
				expect(delivered).toEqual([`${jobs.completed}-Star.pes`]);
				const stored = await readFile(join(folders.delivered(slug), delivered[0]));
				expect(measurePattern(readPattern(stored, 'pes')).stitchCount).toBeGreaterThan(2000);
			} else {
				expect(delivered).toEqual([`${jobs.completed}-Star-preview.png`]);
				const stored = await readFile(join(folders.delivered(slug), delivered[0]));
				expect(stored.subarray(0, 8)).toEqual(Buffer.from('89504e470d0a1a0a', 'hex'));
			}
			const notice = JSON.parse(
				await readFile(join(folders.notices, `${jobs.failed}.json`), 'utf8'),
			);
			expect(notice).toEqual(
				expect.objectContaining({
					jobId: jobs.failed,
					failureCode: 'engine_error',
					willRetry: true,
					reason: expect.stringContaining('engine failed'),
				}),
			);
			// Only the workflow's Retry job step can bring a failed job back; the sandbox's faults are off again.
			const retried = await waitForJobEnd(sandbox, { id: jobs.failed, workflow: 'conversion' });
			expect(retried).toEqual(expect.objectContaining({ status: 'completed', attemptCount: 2 }));
		});
	});
});
