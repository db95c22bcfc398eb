/**
 * What the node guarantees, in a real n8n (2.41.1 or 1.123.81, runs over its REST API): the API key stays with
 * the service's origin when it redirects, and answers with only the spec's required fields (or
 * extra fields and nulls) work.
 * The service is the suite's sandbox behind a loopback proxy that rewrites its answers
 * (test/support/variantService.ts).
 */
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { examplesDir } from '../../scripts/examples';
import { nodeItems, type LocalN8n, type WorkflowRun } from '../../scripts/n8n';
import {
	startOtherOrigin,
	startVariantService,
	type VariantService,
} from '../support/variantService';
import {
	importAccountCredential,
	n8nUnderTest,
	openServedEnvironment,
	type SandboxInfo,
} from './support/environment';
import { createAndWait } from '../support/jobParameters';
import {
	embroideryStep,
	manualWorkflow,
	readFileStep,
	setFields,
	type Step,
} from './support/workflows';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const credential = { id: 'embroideryVariant', name: 'Embroidery through the variant service' };

const embroidery = (name: string, parameters: Record<string, unknown>): Step =>
	embroideryStep(name, parameters, credential);

describe(`what the node guarantees, in ${n8nUnderTest()}`, () => {
	let n8n: LocalN8n;
	let sandbox: SandboxInfo;
	let variant: VariantService;
	let apiKey: string;
	let completedJob: { id: string; workflow: string };
	const errorOf = (result: WorkflowRun) => result.data.resultData.error;

	beforeAll(async () => {
		const environment = await openServedEnvironment();
		({ n8n, sandbox } = environment);
		variant = await startVariantService(sandbox.origin);
		const designPath = join(environment.filesDir, 'Star-trust.JEF');
		await copyFile(join(examplesDir, 'files', 'Star.JEF'), designPath);
		({ key: apiKey } = await importAccountCredential(n8n, sandbox, {
			ref: credential,
			creditBalance: 50,
			baseUrl: variant.baseUrl,
		}));
		const design = { name: 'Star.JEF', bytes: await readFile(designPath) };
		completedJob = await createJob(
			{ baseUrl: sandbox.baseUrl, demoKey: apiKey },
			{ workflow: 'conversion', format: 'dst' },
			design,
		);
		await waitForJobEnd({ baseUrl: sandbox.baseUrl, demoKey: apiKey }, completedJob);

		await n8n.importWorkflows([
			manualWorkflow('e2eTrustUsage001', 'Trust: usage', [
				embroidery('Usage', { resource: 'account', operation: 'getUsage' }),
			]),
			manualWorkflow('e2eTrustPreview1', 'Trust: download a preview', [
				setFields('Job', { id: completedJob.id, workflow: completedJob.workflow }),
				embroidery('Download', {
					resource: 'job',
					operation: 'download',
					files: ['preview'],
					options: {},
				}),
			]),
			manualWorkflow('e2eTrustConvert1', 'Trust: create, wait, download the preview', [
				readFileStep('Read design', designPath),
				embroidery('Convert', createAndWait({ options: {} })),
			]),
		]);
	});

	afterEach(() => variant.reset());

	afterAll(async () => {
		await variant?.close();
	});

	it('refuses an API answer redirected to another origin; the other origin never sees a request', async () => {
		const other = await startOtherOrigin();
		try {
			variant.on((request) =>
				request.route === 'GET /usage' ? { redirectTo: `${other.origin}/api/v1/usage` } : undefined,
			);
			const result = await n8n.execute('e2eTrustUsage001');
			expect(errorOf(result)?.message).toContain(`redirected GET /usage to ${other.origin}`);
			expect(other.requests).toHaveLength(0);
		} finally {
			await other.close();
		}
	});

	it('follows a signed file redirected to another origin without the API key', async () => {
		const other = await startOtherOrigin();
		try {
			variant.on((request) =>
				request.route === 'GET /uploads/{id}/preview'
					? { redirectTo: `${other.origin}/files/preview.png` }
					: undefined,
			);
			const result = await n8n.execute('e2eTrustPreview1');
			expect(errorOf(result)).toBeUndefined();
			const [item] = nodeItems(result, 'Download');
			expect((await n8n.readBinary(item.binary!.preview)).toString()).toBe(
				'PNG bytes from the other origin',
			);
			expect(other.requests).toHaveLength(1);
			expect(other.requests[0].headers.authorization).toBeUndefined();
			expect(JSON.stringify(other.requests[0].headers)).not.toContain(apiKey);
		} finally {
			await other.close();
		}
	});

	it.each(['lean', 'extra'] as const)(
		'Create -> Wait -> Download Preview works when the service answers %s',
		async (shape) => {
			variant.answer(shape);
			const result = await n8n.execute('e2eTrustConvert1');
			expect(errorOf(result)).toBeUndefined();
			const [item] = nodeItems(result, 'Convert');
			expect(item.json).toEqual(
				expect.objectContaining({ workflow: 'conversion', status: 'completed' }),
			);
			expect((await n8n.readBinary(item.binary!.preview)).subarray(0, 8)).toEqual(pngSignature);
			// The listing entries carried no file links, so the job's detail was fetched for them.
			expect(variant.of('GET /jobs/conversion/{id}').length).toBeGreaterThanOrEqual(1);
			const usage = await n8n.execute('e2eTrustUsage001');
			expect(nodeItems(usage, 'Usage')[0].json).toEqual(
				expect.objectContaining({ creditBalance: expect.any(Number) }),
			);
		},
	);
});
