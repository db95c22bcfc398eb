/**
 * The Embroidery Trigger published in a running n8n (2.41.1 or 1.123.81) against the suite's sandbox behind a
 * loopback proxy (test/support/variantService.ts): a key refused after activation reaches n8n's own error path, a
 * failed trigger execution and one run of the workflow's error workflow, instead of only the log.
 * n8n 2.41 refuses polls more often than once a minute, so this waits for real minutes; test/e2e/run.sh runs
 * the files that wait for real minutes in a lane of their own beside the other files (with triggerScheduler and
 * start.e2e.ts).
 */
import { nodeItems, sleep, type LocalN8n } from '../../scripts/n8n';
import { startVariantService, type VariantService } from '../support/variantService';
import {
	n8nUnderTest,
	openEnvironment,
	realTimeSetUpMs,
	type E2eEnvironment,
} from './support/environment';
import {
	executionsOf,
	listingsOf,
	startAndPublish,
	until,
	waitForExecutions,
} from './support/triggers';

describe(`The trigger's failures reach n8n's error path, in ${n8nUnderTest()}`, () => {
	let environment: E2eEnvironment;
	let variant: VariantService;
	const listings = () => listingsOf(variant);

	beforeAll(async () => {
		environment = await openEnvironment();
		variant = await startVariantService(environment.sandbox.origin);
	});

	afterAll(async () => {
		await variant?.close();
	});

	describe('a key refused after activation', () => {
		const triggerId = 'e2eTrigRefused01';
		const errorsId = 'e2eTrigErrors001';
		let n8n: LocalN8n;

		beforeAll(async () => {
			n8n = environment.n8n;
			await startAndPublish(n8n, environment, variant, { triggerId, errorsId });
		}, realTimeSetUpMs);

		afterAll(async () => {
			await n8n.stop();
		});

		it(
			'ends in one failed execution and one run of the error workflow; the next failing poll is ' +
				'only logged',
			async () => {
				// The activation's poll took the baseline; from now on the service refuses the key.
				await until('the activation poll', async () => (listings() > 0 ? true : undefined), 90_000);
				variant.on((request) =>
					request.route === 'GET /jobs'
						? { status: 401, body: { message: 'The API key has been revoked.' } }
						: undefined,
				);
				const refusedFrom = listings();
				const [failed] = await waitForExecutions(n8n, triggerId, 1, 150_000);
				expect(failed.status).toBe('error');
				const run = await n8n.getExecution(failed.id);
				expect(run.data.resultData.error?.message).toMatch(/^Authentication failed/);
				const [reported] = await waitForExecutions(n8n, errorsId, 1, 60_000);
				const [errorItem] = nodeItems(await n8n.getExecution(reported.id), 'Error Trigger');
				expect(errorItem.json).toMatchObject({ workflow: { id: triggerId } });
				expect(JSON.stringify(errorItem.json)).toMatch(/Authentication failed/);
				// The next scheduled poll fails the same way: logged, not reported again.
				await until(
					'a second refused poll',
					async () => (listings() >= refusedFrom + 2 ? true : undefined),
					150_000,
				);
				await sleep(5_000);
				expect(await executionsOf(n8n, triggerId)).toHaveLength(1);
				expect(await executionsOf(n8n, errorsId)).toHaveLength(1);
			},
		);
	});
});
