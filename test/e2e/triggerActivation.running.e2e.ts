/**
 * The Embroidery Trigger activated in a RUNNING n8n (2.41.1 or 1.123.81), as the editor does it: n8n runs,
 * the workflow is then published over the REST API, and a job created at once ends before n8n's next
 * scheduled poll. It is emitted exactly once; a job that ended before the activation never is.
 * (triggerActivation.e2e.ts is the other path: published before `n8n start`.)
 */
import { ACTIVATION_POLL_DELAY_MS } from '../../nodes/Embroidery/trigger/pollLimits';
import { sleep, type LocalN8n } from '../../scripts/n8n';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	e2eOwner,
	n8nUnderTest,
	openEnvironment,
	realTimeSetUpMs,
	type E2eEnvironment,
} from './support/environment';
import { convertedStar, expectEmittedOnce, importTrigger } from './support/triggers';

const credential = { id: 'embroideryTrigRun', name: 'Embroidery trigger in running n8n' };
const triggerId = 'e2eTrigRunning01';

describe(`A job created right after the trigger is published in a running ${n8nUnderTest()}`, () => {
	let environment: E2eEnvironment;
	let variant: VariantService;
	let n8n: LocalN8n;
	let direct: { baseUrl: string; demoKey: string };

	beforeAll(async () => {
		environment = await openEnvironment();
		variant = await startVariantService(environment.sandbox.origin);
		n8n = environment.n8n;
		await n8n.start();
		await n8n.signIn(e2eOwner);
		// Into the running n8n, as the editor would: over REST in n8n 2.x (no CLI process beside the start).
		direct = await importTrigger(n8n, environment, variant, { triggerId, credential });
	}, realTimeSetUpMs);

	afterAll(async () => {
		await n8n?.stop();
		await variant?.close();
	});

	it('emits it once, and never the job that ended before the activation', async () => {
		await convertedStar(direct);
		// The activation poll emits what ended within ACTIVATION_POLL_DELAY_MS before it (n8n may run it that late):
		// this job ends well before that window.
		await sleep(ACTIVATION_POLL_DELAY_MS + 10_000);
		await n8n.activateWorkflow(triggerId);
		// At once, as a user would: n8n 2.41 activates a published workflow in the background (its publication
		// outbox, read every 15 s), so this job may end before the trigger's activation poll.
		const job = await convertedStar(direct);
		await n8n.waitForActivationOverRest([triggerId]);
		await expectEmittedOnce(n8n, triggerId, variant, job.id);
	}, 540_000);
});
