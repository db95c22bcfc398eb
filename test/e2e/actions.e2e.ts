/** Every operation of the Embroidery node, and its error paths, run in a real `n8n start` by its REST API. */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { createJob, setEngineFailureRate, waitForJobEnd } from '../../scripts/sandbox-client';
import { examplesDir } from '../../scripts/examples';
import { nodeItems, type LocalN8n, type WorkflowRun } from '../../scripts/n8n';
import { measurePattern, readPattern } from '../../sandbox/engine';
import {
	e2eCredentials,
	n8nUnderTest,
	openServedEnvironment,
	type SandboxInfo,
} from './support/environment';
import { createAndWait, createConversion } from '../support/jobParameters';
import {
	embroideryStep,
	manualWorkflow,
	readFileStep,
	setFields,
	type Step,
} from './support/workflows';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type CredentialRole = keyof typeof e2eCredentials;

function embroidery(
	name: string,
	parameters: Record<string, unknown>,
	role: CredentialRole = 'demo',
): Step {
	const { id, name: credentialName } = e2eCredentials[role];
	return embroideryStep(name, parameters, { id, name: credentialName });
}

describe(`the Embroidery node in ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let sandbox: SandboxInfo;
	let designPath: string;
	let artworkPath: string;
	let completedJob: { id: string; workflow: string };
	let failedJob: { id: string; workflow: string };
	const jobRef = () => setFields('Job', { id: completedJob.id, workflow: completedJob.workflow });

	const run = async (id: string): Promise<WorkflowRun> => await n8n.execute(id);
	const errorOf = (result: WorkflowRun) => result.data.resultData.error;

	beforeAll(async () => {
		const environment = await openServedEnvironment();
		({ n8n, sandbox } = environment);
		designPath = join(environment.filesDir, 'Star.JEF');
		artworkPath = join(environment.filesDir, 'logo.svg');
		await copyFile(join(examplesDir, 'files', 'Star.JEF'), designPath);
		await copyFile(join(examplesDir, 'files', 'logo.svg'), artworkPath);

		const design = { name: 'Star.JEF', bytes: await readFile(designPath) };
		completedJob = await createJob(sandbox, { workflow: 'conversion', format: 'dst' }, design);
		await waitForJobEnd(sandbox, completedJob);
		await setEngineFailureRate(sandbox, 1);
		try {
			failedJob = await createJob(sandbox, { workflow: 'conversion', format: 'exp' }, design);
			await waitForJobEnd(sandbox, failedJob);
		} finally {
			await setEngineFailureRate(sandbox, 0);
		}

		await n8n.importWorkflows([
			manualWorkflow('e2eOpUsage000001', 'Account: get usage', [
				embroidery('Usage', { resource: 'account', operation: 'getUsage' }),
			]),
			manualWorkflow('e2eOpFormats0001', 'Format: get many', [
				embroidery('Formats', {
					resource: 'format',
					operation: 'getMany',
					output: 'formats',
					filters: {},
				}),
			]),
			manualWorkflow('e2eOpConvert0001', 'Job: create a conversion and wait', [
				readFileStep('Read design', designPath),
				embroidery('Convert', createAndWait({ options: {} })),
			]),
			manualWorkflow('e2eOpDigitise001', 'Job: create a digitising job', [
				readFileStep('Read artwork', artworkPath, 'artwork'),
				embroidery('Digitise', {
					resource: 'job',
					operation: 'create',
					workflow: 'digitising',
					binaryPropertyName: 'artwork',
					format: 'jef',
					widthMm: 50,
					colourCount: 2,
					threadPaletteKey: 'isacord',
					options: {},
				}),
			]),
			manualWorkflow('e2eOpGet00000001', 'Job: get', [
				jobRef(),
				embroidery('Get', { resource: 'job', operation: 'get' }),
			]),
			manualWorkflow('e2eOpGetMany0001', 'Job: get many', [
				embroidery('Jobs', { resource: 'job', operation: 'getMany' }),
			]),
			manualWorkflow('e2eOpWait0000001', 'Job: wait for completion', [
				jobRef(),
				embroidery('Wait', {
					resource: 'job',
					operation: 'waitForCompletion',
					timeout: 60,
					downloadResults: [],
				}),
			]),
			manualWorkflow('e2eOpLocked00001', 'Job: download while locked', [
				jobRef(),
				embroidery('Download', {
					resource: 'job',
					operation: 'download',
					files: ['outputs'],
					options: {},
				}),
			]),
			manualWorkflow('e2eOpUnlock00001', 'Job: unlock', [
				jobRef(),
				embroidery('Unlock', { resource: 'job', operation: 'unlock' }),
			]),
			manualWorkflow('e2eOpDownload001', 'Job: download', [
				jobRef(),
				embroidery('Download', {
					resource: 'job',
					operation: 'download',
					files: ['outputs', 'preview', 'source'],
					options: {},
				}),
			]),
			manualWorkflow('e2eOpFileDownl01', 'File: download a signed URL', [
				jobRef(),
				embroidery('Get', { resource: 'job', operation: 'get' }),
				embroidery('Download URL', {
					resource: 'file',
					operation: 'download',
					url: '={{ $json.outputs[0].downloadUrl }}',
					binaryPropertyName: 'machineFile',
				}),
			]),
			manualWorkflow('e2eOpRetry000001', 'Job: retry', [
				setFields('Job', { id: failedJob.id, workflow: failedJob.workflow }),
				embroidery('Retry', { resource: 'job', operation: 'retry' }),
			]),
			manualWorkflow('e2eErrWrongKey01', 'Error: wrong key', [
				embroidery(
					'Formats',
					{ resource: 'format', operation: 'getMany', output: 'formats', filters: {} },
					'wrongKey',
				),
			]),
			manualWorkflow('e2eErrAbility001', 'Error: key without jobs:write', [
				readFileStep('Read design', designPath),
				embroidery('Convert', createConversion({ format: 'dst', options: {} }), 'readOnly'),
			]),
			manualWorkflow('e2eErrWidth00001', 'Error: invalid width', [
				readFileStep('Read artwork', artworkPath, 'artwork'),
				embroidery('Digitise', {
					resource: 'job',
					operation: 'create',
					workflow: 'digitising',
					binaryPropertyName: 'artwork',
					format: 'dst',
					widthMm: 5,
					colourCount: 2,
					options: {},
				}),
			]),
		]);
	});

	it('Account > Get Usage returns the demo account allowance', async () => {
		const result = await run('e2eOpUsage000001');
		expect(errorOf(result)).toBeUndefined();
		expect(nodeItems(result, 'Usage')[0].json).toEqual(
			expect.objectContaining({
				creditBalance: expect.any(Number),
				previewRemaining: expect.any(Number),
			}),
		);
	});

	it('Format > Get Many lists every engine format', async () => {
		const result = await run('e2eOpFormats0001');
		const formats = nodeItems(result, 'Formats').map((item) => item.json.format);
		expect(formats).toEqual(
			expect.arrayContaining(['dst', 'exp', 'jef', 'pes', 'pec', 'vp3', 'xxx', 'u01']),
		);
	});

	it('Job > Create converts a file, waits and attaches the preview of the locked job', async () => {
		const result = await run('e2eOpConvert0001');
		expect(errorOf(result)).toBeUndefined();
		const [item] = nodeItems(result, 'Convert');
		expect(item.json).toEqual(
			expect.objectContaining({
				workflow: 'conversion',
				status: 'completed',
				downloadsUnlocked: false,
			}),
		);
		const preview = item.binary?.preview;
		expect(preview?.mimeType).toBe('image/png');
		expect((await n8n.readBinary(preview!)).subarray(0, 8)).toEqual(pngSignature);
	});

	it('Job > Create starts a digitising job with the chosen size, colours and palette', async () => {
		const result = await run('e2eOpDigitise001');
		expect(errorOf(result)).toBeUndefined();
		const [item] = nodeItems(result, 'Digitise');
		expect(item.json).toEqual(
			expect.objectContaining({
				workflow: 'digitising',
				id: expect.stringMatching(/^[0-9A-Z]{26}$/),
			}),
		);
		const done = await waitForJobEnd(sandbox, { id: String(item.json.id), workflow: 'digitising' });
		expect(done).toEqual(
			expect.objectContaining({ status: 'completed', widthMm: 50, colourCount: 2 }),
		);
	});

	it('Job > Get returns the job with its workflow', async () => {
		const [item] = nodeItems(await run('e2eOpGet00000001'), 'Get');
		expect(item.json).toEqual(
			expect.objectContaining({ id: completedJob.id, workflow: 'conversion', status: 'completed' }),
		);
	});

	it('Job > Get Many lists the recent jobs', async () => {
		const ids = nodeItems(await run('e2eOpGetMany0001'), 'Jobs').map((item) => item.json.id);
		expect(ids).toEqual(expect.arrayContaining([completedJob.id, failedJob.id]));
	});

	it('Job > Wait for Completion passes a finished job on', async () => {
		const [item] = nodeItems(await run('e2eOpWait0000001'), 'Wait');
		expect(item.json).toEqual(
			expect.objectContaining({ id: completedJob.id, status: 'completed' }),
		);
	});

	it('Job > Download of a locked job ends in the message to unlock it first', async () => {
		const error = errorOf(await run('e2eOpLocked00001'));
		expect(error?.message).toBe(`The machine files of job ${completedJob.id} are locked [item 0]`);
		expect(error?.description).toContain('Run Job > Unlock first');
	});

	it('Job > Unlock unlocks the machine files', async () => {
		const [item] = nodeItems(await run('e2eOpUnlock00001'), 'Unlock');
		expect(item.json).toEqual(
			expect.objectContaining({ id: completedJob.id, downloadsUnlocked: true }),
		);
	});

	it('Job > Download returns the machine file, the clean preview and the source', async () => {
		const result = await run('e2eOpDownload001');
		expect(errorOf(result)).toBeUndefined();
		const binary = nodeItems(result, 'Download')[0].binary!;
		const machineFile = await n8n.readBinary(binary.data);
		expect(measurePattern(readPattern(machineFile, 'dst')).stitchCount).toBeGreaterThan(2000);
		expect((await n8n.readBinary(binary.preview)).subarray(0, 8)).toEqual(pngSignature);
		expect(await n8n.readBinary(binary.source)).toEqual(await readFile(designPath));
	});

	it('File > Download fetches a signed URL as given', async () => {
		const result = await run('e2eOpFileDownl01');
		expect(errorOf(result)).toBeUndefined();
		const binary = nodeItems(result, 'Download URL')[0].binary!.machineFile;
		expect(readPattern(await n8n.readBinary(binary), 'dst').xs.length).toBeGreaterThan(2000);
	});

	it('Job > Retry queues a failed job again, which then completes', async () => {
		const [item] = nodeItems(await run('e2eOpRetry000001'), 'Retry');
		expect(item.json).toEqual(
			expect.objectContaining({ id: failedJob.id, workflow: 'conversion', status: 'queued' }),
		);
		expect(await waitForJobEnd(sandbox, failedJob)).toEqual(
			expect.objectContaining({ status: 'completed' }),
		);
	});

	it('a wrong key ends in "Authentication failed"', async () => {
		const error = errorOf(await run('e2eErrWrongKey01'));
		expect(error?.message).toMatch(/^Authentication failed: /);
		expect(JSON.stringify(error)).not.toContain('emb_sandbox_this_key_does_not_exist');
	});

	it('a key without jobs:write ends in "Forbidden" naming the missing ability', async () => {
		const error = errorOf(await run('e2eErrAbility001'));
		expect(error?.message).toMatch(/^Forbidden: /);
		expect(`${error?.message} ${error?.description}`).toContain('jobs:write');
	});

	it('a width outside 10-300 mm ends in a message naming the parameter and its bounds', async () => {
		const error = errorOf(await run('e2eErrWidth00001'));
		expect(error?.message).toBe(
			"'Width in Millimetres' must be between 10 and 300, got 5 [item 0]",
		);
	});
});
