/**
 * The Embroidery Trigger activated in a RUNNING n8n (2.41.1 or 1.123.81), as the editor does it: n8n runs,
 * the workflow is then published over the REST API, and a job created at once ends before n8n's next
 * scheduled poll. It is emitted exactly once; a job that ended before the activation never is.
 * (triggerActivation.e2e.ts is the other path: published before `n8n start`.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { waitForExecutions } from '../../scripts/demo';
import { examplesDir } from '../../scripts/examples';
import { nodeItems, sleep, type LocalN8n } from '../../scripts/n8n';
import { createJob, waitForJobEnd } from '../../scripts/sandbox-client';
import { ACTIVATION_POLL_DELAY_MS } from '../../nodes/Embroidery/trigger/pollLimits';
import { startVariantService, type VariantService } from '../support/variantService';
import { activateInRunningN8n, waitForRestActivation } from './support/activation';
import {
	e2eOwner,
	n8nUnderTest,
	openEnvironment,
	type E2eEnvironment,
} from './support/environment';
import { importTrigger } from './support/triggers';

const credential = { id: 'embroideryTrigRun', name: 'Embroidery trigger in running n8n' };
const triggerId = 'e2eTrigRunning01';

describe(`A job created right after the trigger is published in a running ${n8nUnderTest()}`, () => {
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
		await n8n.start();
		await n8n.signIn(e2eOwner);
	});

	afterAll(async () => {
		await n8n?.stop();
		await variant?.close();
	});

	it('emits it once, and never the job that ended before the activation', async () => {
		const before = await createJob(
			direct,
			{ workflow: 'conversion', format: 'dst' },
			await design(),
		);
		await waitForJobEnd(direct, before);
		// The activation poll emits what ended within ACTIVATION_POLL_DELAY_MS before it (n8n may run it that late):
		// this job ends well before that window.
		await sleep(ACTIVATION_POLL_DELAY_MS + 10_000);
		await activateInRunningN8n(n8n, triggerId);
		// At once, as a user would: n8n 2.41 activates a published workflow in the background (its publication
		// outbox, read every 15 s), so this job may end before the trigger's activation poll.
		const job = await createJob(direct, { workflow: 'conversion', format: 'dst' }, await design());
		await waitForJobEnd(direct, job);
		await waitForRestActivation(n8n, triggerId);
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
	}, 540_000);
});
