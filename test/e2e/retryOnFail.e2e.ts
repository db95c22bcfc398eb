/**
 * n8n's Retry On Fail, in a real n8n (2.41.1 or 1.123.81, under `n8n start`): a Create with Wait, Unlock Before
 * Download and the machine file downloaded, whose downloads answer 410 Gone, is run three times by n8n. However
 * many tries, the service sees one creation and one unlock (one charge). A 410 is an answer the transport does
 * not send again, so each of n8n's tries asks for the file once and the test needs no backoff; the same runs with
 * downloads answering 503, which the transport tries five times with backoff, are
 * test/nodes/Embroidery/helpers/earlierTries.test.ts (n8n-core, driven clock). The service is the suite's
 * sandbox behind a loopback proxy that counts every request and answers the file downloads itself
 * (test/support/variantService.ts).
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';

import { examplesDir } from '../../scripts/examples';
import { fetchN8n, nodeItems, type LocalN8n, type WorkflowRun } from '../../scripts/n8n';
import { sandboxAdmin } from '../support/sandbox';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	importAccountCredential,
	n8nUnderTest,
	openServedEnvironment,
	type E2eEnvironment,
	type SandboxInfo,
} from './support/environment';
import { waitForExecutions } from '../../scripts/demo';
import { createAndWait } from '../support/jobParameters';
import {
	embroideryStep,
	linearWorkflow,
	manualWorkflow,
	readFileStep,
	type Step,
} from './support/workflows';

const credential = { id: 'embroideryRetries', name: 'Embroidery with downloads answering 410' };

/** The node with n8n's Retry On Fail on: three tries, one second apart. */
function retried(step: Step, onError?: Step['onError']): Step {
	return {
		...step,
		retryOnFail: true,
		maxTries: 3,
		waitBetweenTries: 1000,
		...(onError ? { onError } : {}),
	} as Step;
}

const convert = createAndWait({
	downloadResults: ['outputs'],
	unlockBeforeDownload: true,
	timeout: 90,
	options: {},
});

describe(`Retry On Fail never creates or charges twice, in ${n8nUnderTest()}`, () => {
	const hookWorkflow = 'e2eRetryExec0001';
	let n8n: LocalN8n;
	let sandbox: SandboxInfo;
	let environment: E2eEnvironment;
	let variant: VariantService;
	let accountId: string;
	const errorOf = (result: WorkflowRun) => result.data.resultData.error;
	const creditBalance = async () =>
		Number((await sandboxAdmin(sandbox).usage(accountId)).creditBalance);
	const downloads = () =>
		variant.requests.filter((request) => request.route.startsWith('GET /uploads/'));

	beforeAll(async () => {
		environment = await openServedEnvironment();
		({ n8n, sandbox } = environment);
		variant = await startVariantService(sandbox.origin);
		const designPath = join(environment.filesDir, 'Star-retries.JEF');
		await copyFile(join(examplesDir, 'files', 'Star.JEF'), designPath);
		({ accountId } = await importAccountCredential(n8n, sandbox, {
			ref: credential,
			creditBalance: 100,
			baseUrl: variant.baseUrl,
		}));
		const steps = (onError?: Step['onError']) => [
			readFileStep('Read design', designPath),
			retried(embroideryStep('Convert', convert, credential), onError),
		];
		await n8n.importWorkflows([
			manualWorkflow('e2eRetryStop0001', 'Retry On Fail: create, wait, unlock, download', steps()),
			manualWorkflow(
				'e2eRetryCont0001',
				'Retry On Fail with Continue On Fail',
				steps('continueRegularOutput'),
			),
			linearWorkflow(hookWorkflow, 'Retried execution: create, wait, unlock, download', [
				{
					name: 'Order',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: 'e2e-retry-execution',
					position: [0, 0],
					parameters: {
						httpMethod: 'POST',
						path: 'retry-execution',
						responseMode: 'onReceived',
						options: {},
					},
				},
				{ ...readFileStep('Read design', designPath), position: [220, 0] },
				{ ...embroideryStep('Convert', convert, credential), position: [440, 0] },
			]),
		]);
		// The manual runs go through n8n's REST API, the retried one through its webhook.
		await n8n.activateWorkflows([hookWorkflow]);
	});

	beforeEach(() => {
		variant.reset();
		// Every file download fails for good: the node gives up on its first answer, and n8n tries again.
		variant.on((request) =>
			request.route.startsWith('GET /uploads/') ? { status: 410 } : undefined,
		);
	});

	afterAll(async () => {
		await variant?.close();
	});

	it('the execution fails on the download, after one creation and one unlock, charged once', async () => {
		const usage = await sandboxAdmin(sandbox).usage(accountId);
		const result = await n8n.execute('e2eRetryStop0001');
		expect(errorOf(result)?.message).toBeDefined();
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		// n8n ran the node three times: each try asked for the file once.
		expect(downloads()).toHaveLength(3);
		expect(Number(usage.creditBalance) - (await creditBalance())).toBe(
			Number(usage.conversionCreditCost),
		);
	});

	it('with Continue On Fail on, the error item is retried by n8n, still with one creation and one unlock', async () => {
		const result = await n8n.execute('e2eRetryCont0001');
		expect(errorOf(result)).toBeUndefined();
		const [item] = nodeItems(result, 'Convert');
		expect(item.json).toEqual(
			expect.objectContaining({ workflow: 'conversion', error: expect.any(String) }),
		);
		expect(variant.of('POST /jobs')).toHaveLength(1);
		expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
		// n8n ran the node again because the first item carried an error: the file was asked for once in every try.
		expect(downloads()).toHaveLength(3);
	});

	describe("n8n's Retry of the failed execution, under n8n start", () => {
		it('the retry creates and unlocks nothing again: it downloads the job the failed execution made', async () => {
			const usage = await sandboxAdmin(sandbox).usage(accountId);
			const response = await fetchN8n(`${n8n.url}/webhook/retry-execution`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
				signal: AbortSignal.timeout(30_000),
			});
			expect(response.status).toBe(200);
			const [failed] = await waitForExecutions(n8n, hookWorkflow, 1, 120_000);
			expect(failed.status).toBe('error');
			expect(variant.of('POST /jobs')).toHaveLength(1);
			expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(1);
			// The service works again; the user retries the failed execution from the executions list.
			variant.reset();
			await n8n.rest('POST', `/rest/executions/${failed.id}/retry`, { loadWorkflow: false });
			const executions = await waitForExecutions(n8n, hookWorkflow, 2, 120_000);
			const retried = executions.find((execution) => execution.id !== failed.id)!;
			expect(retried).toMatchObject({ status: 'success', mode: 'retry' });
			const [item] = nodeItems(await n8n.getExecution(retried.id), 'Convert');
			expect(item.json).toMatchObject({ status: 'completed', downloadsUnlocked: true });
			expect(item.binary?.data).toBeDefined();
			expect(variant.of('POST /jobs')).toHaveLength(0);
			expect(variant.of('POST /jobs/conversion/{id}/unlock')).toHaveLength(0);
			expect(Number(usage.creditBalance) - (await creditBalance())).toBe(
				Number(usage.conversionCreditCost),
			);
		});
	});
});
