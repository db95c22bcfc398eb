/**
 * The Embroidery Trigger right after activation, under `n8n start` (2.41.1 or 1.123.81): a job created at once
 * after the workflow is active ends before n8n's first scheduled poll, and is emitted exactly once; a job that
 * ended before activation is not.
 */
import { type LocalN8n } from '../../scripts/n8n';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	e2eOwner,
	n8nUnderTest,
	openEnvironment,
	realTimeSetUpMs,
	type E2eEnvironment,
} from './support/environment';
import { convertedStar, expectEmittedOnce, importTrigger } from './support/triggers';

const credential = { id: 'embroideryTrigAct', name: 'Embroidery trigger from activation' };
const triggerId = 'e2eTrigActivate1';

describe(`A job created right after the trigger's activation, in ${n8nUnderTest()}`, () => {
	let environment: E2eEnvironment;
	let variant: VariantService;
	let n8n: LocalN8n;
	let direct: { baseUrl: string; demoKey: string };

	beforeAll(async () => {
		environment = await openEnvironment();
		variant = await startVariantService(environment.sandbox.origin);
		n8n = environment.n8n;
		direct = await importTrigger(n8n, environment, variant, { triggerId, credential });
	}, realTimeSetUpMs);

	afterAll(async () => {
		await n8n?.stop();
		await variant?.close();
	});

	// Real minutes: a publish, a start, the first poll at the next minute and two more after the emission. It took
	// 328 s in the project's clean-clone run on bdeb36c (beside jest and the other lanes), against 420 s allowed;
	// each wait inside has its own bound, and this one only catches what they do not.
	it('emits it once, and never the job that ended before activation', async () => {
		await convertedStar(direct);
		await n8n.publishWorkflow(triggerId);
		await n8n.start();
		await n8n.signIn(e2eOwner);
		await n8n.waitForActivation([triggerId]);
		const job = await convertedStar(direct);
		await expectEmittedOnce(n8n, triggerId, variant, job.id);
	}, 600_000);
});
