/**
 * Node version 2's editor features in a real n8n (2.41.1 or 1.123.81, as test/e2e/run.sh picks): the Job
 * picker's list served by n8n's own resource-locator endpoint, a job saved as picked From List, Detect and
 * By URL in executed workflows, Unlock and Download, Simplify, and the execution hints n8n records on the node.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { createJob, setEngineFailureRate, waitForJobEnd } from '../../scripts/sandbox-client';
import { examplesDir } from '../../scripts/examples';
import { nodeItems, type LocalN8n, type WorkflowRun } from '../../scripts/n8n';
import { readPattern } from '../../sandbox/engine';
import {
	e2eCredentials,
	n8nUnderTest,
	openServedEnvironment,
	type SandboxInfo,
} from './support/environment';
import { createConversion } from '../support/jobParameters';
import {
	embroideryStep,
	manualWorkflow,
	readFileStep,
	setFields,
	type Step,
} from './support/workflows';

const credential = { id: e2eCredentials.demo.id, name: e2eCredentials.demo.name };

const embroidery = (name: string, parameters: Record<string, unknown>): Step =>
	embroideryStep(name, parameters, credential, 2);

function hintsOf(run: WorkflowRun, nodeName: string): Array<{ message: string; type?: string }> {
	const task = run.data.resultData.runData[nodeName]?.[0] as
		| { hints?: Array<{ message: string; type?: string }> }
		| undefined;
	return task?.hints ?? [];
}

describe(`the Embroidery node version 2 in ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let sandbox: SandboxInfo;
	let converted: { id: string; workflow: string };
	let picked: { id: string; workflow: string };
	let failed: { id: string; workflow: string; failureReason: string };

	beforeAll(async () => {
		const environment = await openServedEnvironment();
		({ n8n, sandbox } = environment);
		const designPath = join(environment.filesDir, 'Star-editor.JEF');
		await copyFile(join(examplesDir, 'files', 'Star.JEF'), designPath);
		const design = await readFile(designPath);
		converted = await createJob(
			sandbox,
			{ workflow: 'conversion', format: 'exp' },
			{ name: 'Star-editor.JEF', bytes: design },
		);
		await waitForJobEnd(sandbox, converted);
		picked = await createJob(
			sandbox,
			{ workflow: 'conversion', format: 'dst' },
			{ name: 'Star-picked.JEF', bytes: design },
		);
		await waitForJobEnd(sandbox, picked);
		await setEngineFailureRate(sandbox, 1);
		try {
			const job = await createJob(
				sandbox,
				{ workflow: 'conversion', format: 'dst' },
				{ name: 'Star-failed.JEF', bytes: design },
			);
			const ended = await waitForJobEnd(sandbox, job);
			failed = { ...job, failureReason: String(ended.failureReason) };
		} finally {
			await setEngineFailureRate(sandbox, 0);
		}

		await n8n.importWorkflows([
			manualWorkflow('e2eEditorChain01', 'Version 2: create, wait, get (Detect, Simplify, hints)', [
				readFileStep('Read design', designPath),
				embroidery('Convert', createConversion({ format: 'exp', options: {} })),
				embroidery('Wait', {
					resource: 'job',
					operation: 'waitForCompletion',
					timeout: 120,
					downloadResults: ['preview'],
				}),
				embroidery('Get', { resource: 'job', operation: 'get' }),
			]),
			manualWorkflow('e2eEditorByUrl01', 'Version 2: a job by link, and by ID with Detect', [
				setFields('Job', {
					link: `${sandbox.baseUrl}/jobs/${converted.workflow}/${converted.id}`,
					other: converted.id,
				}),
				embroidery('By link', {
					resource: 'job',
					operation: 'get',
					jobId: { __rl: true, mode: 'url', value: '={{ $json.link }}' },
				}),
				embroidery('By ID', {
					resource: 'job',
					operation: 'get',
					jobId: { __rl: true, mode: 'id', value: converted.id },
					workflow: 'detect',
					simplify: false,
				}),
			]),
			manualWorkflow('e2eEditorMany001', 'Version 2: get many, simplified', [
				embroidery('Jobs', { resource: 'job', operation: 'getMany', returnAll: false, limit: 5 }),
			]),
			// As n8n saves a job picked in the editor: the list entry's name and link beside the ID; Workflow left at Detect.
			manualWorkflow(
				'e2eEditorList001',
				'Version 2: a job picked from the list, unlocked and downloaded',
				[
					embroidery('Picked', {
						resource: 'job',
						operation: 'get',
						jobId: {
							__rl: true,
							mode: 'list',
							value: picked.id,
							cachedResultName: 'Star-picked.JEF → DST · conversion · completed · just now',
							cachedResultUrl: `${sandbox.baseUrl}/jobs/conversion/${picked.id}`,
						},
					}),
					embroidery('Unlock', { resource: 'job', operation: 'unlock' }),
					embroidery('Download', { resource: 'job', operation: 'download', files: ['outputs'] }),
				],
			),
			manualWorkflow(
				'e2eEditorFail001',
				'Version 2: get a failed job (Detect), with its failure hint',
				[
					embroidery('Failed job', {
						resource: 'job',
						operation: 'get',
						jobId: { __rl: true, mode: 'id', value: failed.id },
					}),
				],
			),
		]);
	});

	it('chains Create, Wait and Get without mapping, simplified, with warning and lock hints', async () => {
		const run = await n8n.execute('e2eEditorChain01');
		expect(run.status).toBe('success');
		const [created] = nodeItems(run, 'Convert');
		const [got] = nodeItems(run, 'Get');
		expect(got.json).toMatchObject({
			id: created.json.id,
			workflow: 'conversion',
			status: 'completed',
			formats: ['exp'],
			sourceFile: 'Star-editor.JEF',
			outputFile: expect.any(String),
			downloadsUnlocked: false,
			warnings: expect.arrayContaining([expect.stringMatching(/EXP carries no thread colours/)]),
		});
		expect(JSON.stringify(got.json)).not.toMatch(/signature=/);
		expect(hintsOf(run, 'Get').map((hint) => hint.type)).toEqual(['warning', 'info']);
		expect(hintsOf(run, 'Wait').map((hint) => hint.message)).toContain(
			`The machine files of job ${String(created.json.id)} are locked, and its preview is ` +
				`watermarked. Use Job > Unlock (it spends a subscription entitlement or credits), then ` +
				`download the files.`,
		);
	});

	it('takes a job by its link, and finds the workflow of a bare ID', async () => {
		const run = await n8n.execute('e2eEditorByUrl01');
		expect(run.status).toBe('success');
		expect(nodeItems(run, 'By link')[0].json).toMatchObject({
			id: converted.id,
			workflow: 'conversion',
			status: 'completed',
		});
		expect(nodeItems(run, 'By ID')[0].json).toMatchObject({
			id: converted.id,
			workflow: 'conversion',
			source: { downloadUrl: expect.stringContaining('signature=') },
		});
	});

	it('lists recent jobs simplified', async () => {
		const run = await n8n.execute('e2eEditorMany001');
		const items = nodeItems(run, 'Jobs');
		expect(items.length).toBeGreaterThanOrEqual(1);
		expect(items.map((item) => item.json.id)).toContain(converted.id);
		expect(JSON.stringify(items.map((item) => item.json))).not.toMatch(/signature=/);
	});

	it(
		'gets a job saved as picked From List with Workflow at Detect, then unlocks it and ' +
			'downloads its machine file',
		async () => {
			const run = await n8n.execute('e2eEditorList001');
			expect(run.status).toBe('success');
			const [got] = nodeItems(run, 'Picked');
			expect(got.json).toMatchObject({
				id: picked.id,
				workflow: 'conversion',
				status: 'completed',
				sourceFile: 'Star-picked.JEF',
				downloadsUnlocked: false,
			});
			expect(JSON.stringify(got.json)).not.toMatch(/signature=/);
			expect(nodeItems(run, 'Unlock')[0].json).toMatchObject({
				id: picked.id,
				workflow: 'conversion',
				downloadsUnlocked: true,
			});
			const [downloaded] = nodeItems(run, 'Download');
			expect(downloaded.json).toMatchObject({ id: picked.id, workflow: 'conversion' });
			const machineFile = downloaded.binary!.data;
			expect(machineFile.fileName).toMatch(/\.dst$/i);
			expect(readPattern(await n8n.readBinary(machineFile), 'dst').xs.length).toBeGreaterThan(2000);
		},
	);

	it('gets a failed job with its failure and the danger hint that says what to do next', async () => {
		const run = await n8n.execute('e2eEditorFail001');
		expect(run.status).toBe('success');
		expect(nodeItems(run, 'Failed job')[0].json).toMatchObject({
			id: failed.id,
			workflow: 'conversion',
			status: 'failed',
			failureCode: 'engine_error',
			failureReason: failed.failureReason,
		});
		expect(hintsOf(run, 'Failed job')).toContainEqual(
			expect.objectContaining({
				type: 'danger',
				message:
					`Job ${failed.id} failed: ${failed.failureReason}. Fix the source if the reason ` +
					`points at it, then use Job > Retry.`,
			}),
		);
	});

	it("serves the Job picker's list through n8n's resource-locator endpoint", async () => {
		const request = (filter?: string) =>
			n8n.rest<{ results: Array<{ name: string; value: string; url?: string }> }>(
				'POST',
				'/rest/dynamic-node-parameters/resource-locator-results',
				{
					path: 'parameters.jobId',
					nodeTypeAndVersion: { name: 'n8n-nodes-embroidery.embroidery', version: 2 },
					currentNodeParameters: {
						resource: 'job',
						operation: 'get',
						jobId: { __rl: true, mode: 'list', value: '' },
					},
					methodName: 'searchJobs',
					credentials: { embroideryApi: credential },
					...(filter === undefined ? {} : { filter }),
				},
			);
		const all = await request();
		const picked = all.results.find((result) => result.value === converted.id);
		expect(picked).toEqual({
			name: expect.stringMatching(
				/^Star-editor\.JEF → EXP · conversion · completed · (just now|\d+ min ago)$/,
			),
			value: converted.id,
			url: `${sandbox.baseUrl}/jobs/conversion/${converted.id}`,
		});
		const searched = await request('star-editor');
		expect(searched.results.length).toBeGreaterThanOrEqual(1);
		expect(searched.results.every((result) => /Star-editor\.JEF/.test(result.name))).toBe(true);
	});
});
