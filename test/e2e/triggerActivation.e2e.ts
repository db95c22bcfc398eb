/**
 * The Embroidery Trigger right after activation, under `n8n start` (2.41.1 or 1.123.81): a job created at once
 * after the workflow is active ends before n8n's first scheduled poll, and is emitted exactly once; a job that
 * ended before activation is not.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { waitForExecutions } from '../../scripts/demo';
import { examplesDir } from '../../scripts/examples';
import { nodeItems, sleep, type LocalN8n } from '../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	e2eOwner,
	n8nUnderTest,
	openEnvironment,
	type E2eEnvironment,
} from './support/environment';
import { importTrigger } from './support/triggers';

const credential = { id: 'embroideryTrigAct', name: 'Embroidery trigger from activation' };
const triggerId = 'e2eTrigActivate1';

describe(`A job created right after the trigger's activation, in ${n8nUnderTest()}`, () => {
	let environment: E2eEnvironment;
	let variant: VariantService;
	let n8n: LocalN8n;
	let direct: { baseUrl: string; demoKey: string };
	const listings = () => variant.requests.filter((request) => request.route === 'GET /jobs').length;
	const design = async () => ({
		name: 'Star.JEF',
		bytes: await readFile(join(examplesDir, 'files', 'Star.JEF')),
	});

	beforeAll(async () => {
		environment = await openEnvironment();
		variant = await startVariantService(environment.sandbox.origin);
		n8n = environment.n8n;
		direct = await importTrigger(n8n, environment, variant, { triggerId, credential });
	});

	afterAll(async () => {
		await n8n?.stop();
		await variant?.close();
	});

	it('emits it once, and never the job that ended before activation', async () => {
		const before = await createJob(
			direct,
			{ workflow: 'conversion', format: 'dst' },
			await design(),
		);
		await waitForJobEnd(direct, before);
		await n8n.publishWorkflow(triggerId);
		await n8n.start();
		await n8n.signIn(e2eOwner);
		await n8n.waitForActivation([triggerId]);
		const job = await createJob(direct, { workflow: 'conversion', format: 'dst' }, await design());
		await waitForJobEnd(direct, job);
		const [emitted] = await waitForExecutions(n8n, triggerId, 1, 150_000);
		const items = nodeItems(await n8n.getExecution(emitted.id), 'Job finished');
		expect(items.map((item) => item.json.id)).toEqual([job.id]);
		// Two more scheduled polls: neither emits anything again.
		const listedAtEmission = listings();
		const deadline = Date.now() + 180_000;
		while (listings() < listedAtEmission + 2 && Date.now() < deadline) await sleep(1_000);
		expect(listings()).toBeGreaterThanOrEqual(listedAtEmission + 2);
		await sleep(5_000);
		// Every finished execution of the workflow: only the one that emitted the job.
		const executions = await waitForExecutions(n8n, triggerId, 1, 10_000);
		expect(executions.map((execution) => execution.id)).toEqual([emitted.id]);
	}, 420_000);
});
